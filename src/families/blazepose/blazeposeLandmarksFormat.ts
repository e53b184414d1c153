import { z } from 'zod';
import { fixedSize, tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { channelsOf } from '../layoutChannels';
import { outputNamed } from '../outputNamed';
import { decodeBlazePoseLandmarks } from './decodeBlazePoseLandmarks';

/** A BlazePose crop whose person-present output is below this holds no person (MediaPipe's). */
export const BLAZEPOSE_PERSON_THRESHOLD = 0.5;

/**
 * MediaPipe BlazePose GHUM landmark model (pose_landmark_lite / _full / _heavy), one person per
 * crop. `landmarks` [1, L*5]: per landmark x, y in input pixels, z on the same scale (relative to
 * the hips' midpoint, smaller is nearer the camera), then visibility and presence as logits (a
 * sigmoid makes them probabilities); the first keypoints.names.length are the body, the others
 * auxiliary (MediaPipe aligns its next crop with them). `personScore` [1, 1]: probability that the
 * crop holds a person (the sigmoid is inside the model). Also, when the file has them:
 * `segmentation` person logits at input size, `heatmaps` one per landmark at a quarter of the input
 * size, `worldLandmarks` [1, L*3] in metres with the hips' midpoint as origin.
 */
const schema = z.strictObject({
  format: z.literal('blazepose-landmarks'),
  landmarks: tensorSpec,
  personScore: tensorSpec,
  segmentation: tensorSpec.extend({ layout: tensorLayout }).optional(),
  heatmaps: tensorSpec.extend({ layout: tensorLayout }).optional(),
  worldLandmarks: tensorSpec.optional(),
});
export type BlazeposeLandmarksOutputs = z.infer<typeof schema>;

export const BLAZEPOSE_LANDMARKS_FORMAT = {
  format: 'blazepose-landmarks',
  schema,
  /** 5 values per landmark, at least the named ones; heatmaps and world landmarks agree. */
  check(o, m, issue) {
    const size = fixedSize(o.landmarks.dims);
    if (size === undefined || size % 5 !== 0) {
      issue(['outputs', 'landmarks', 'dims'], 'expected a fixed size of 5 values per landmark');
      return;
    }
    const landmarks = size / 5;
    const named = m.keypoints?.names.length ?? 0;
    if (named > landmarks) {
      issue(['keypoints', 'names'], `${named} keypoints but the model has ${landmarks} landmarks`);
    }
    if (fixedSize(o.personScore.dims) !== 1)
      issue(['outputs', 'personScore', 'dims'], 'expected one value');
    if (o.heatmaps !== undefined) {
      if (o.heatmaps.dims.length !== 4 || channelsOf(o.heatmaps) !== landmarks)
        issue(['outputs', 'heatmaps', 'dims'], `expected rank 4 with ${landmarks} heatmaps`);
    }
    if (o.worldLandmarks !== undefined && fixedSize(o.worldLandmarks.dims) !== landmarks * 3) {
      issue(['outputs', 'worldLandmarks', 'dims'], `expected ${landmarks} x 3 values`);
    }
  },
  tensors: (o) => [
    { field: 'outputs.landmarks', spec: o.landmarks },
    { field: 'outputs.personScore', spec: o.personScore },
    { field: 'outputs.segmentation', spec: o.segmentation },
    { field: 'outputs.heatmaps', spec: o.heatmaps },
    { field: 'outputs.worldLandmarks', spec: o.worldLandmarks },
  ],
  decodeCrop(o, run, ctx) {
    const m = ctx.manifest;
    const found = decodeBlazePoseLandmarks(
      outputNamed(run.outputs, o.landmarks.name, m.name),
      outputNamed(run.outputs, o.personScore.name, m.name),
      run.transform,
      m.keypoints?.names.length ?? 33,
    );
    // The crop holds no person by the model's own judgement (a detector's false positive).
    if (found.personScore < BLAZEPOSE_PERSON_THRESHOLD) return undefined;
    return { score: found.personScore, keypoints: found.keypoints };
  },
} as const satisfies OutputFormat<typeof schema>;
