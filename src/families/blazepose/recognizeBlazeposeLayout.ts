import { specOf, type ExportTensor } from '../exportTensor';
import type { ObservedRange, TfliteLayoutRecognizer } from '../modelFamily';
import { fixedDims, sameDims, nhwcImage, within01 } from '../tfliteShapes';
import { BLAZEPOSE_KEYPOINT_NAMES, BLAZEPOSE_SKELETON } from './blazeposeKeypoints';

export interface BlazeposeLayout {
  readonly kind: 'blazepose-landmarks';
  readonly input: ExportTensor;
  readonly landmarkCount: number;
  readonly landmarks: ExportTensor;
  readonly personScore: ExportTensor;
  readonly segmentation: ExportTensor;
  readonly heatmaps: ExportTensor;
  readonly worldLandmarks: ExportTensor;
}

/** BlazePose names 33 body landmarks; its landmark models output more (auxiliary ones). */
export const BLAZEPOSE_BODY_LANDMARKS = 33;

const BLAZEPOSE_NOTES =
  'MediaPipe BlazePose GHUM landmark model, one person per crop. MediaPipe feeds it the person ' +
  'region scaled into the square input keeping the aspect ratio, RGB 0..1; landmark visibility and ' +
  'presence are logits (MediaPipe applies a sigmoid), the person score is a probability ' +
  '(MediaPipe thresholds it at 0.5), the segmentation output is logits; landmarks 33 and 34 are ' +
  "MediaPipe's auxiliary points for aligning the next crop (mediapipe/modules/pose_landmark).";

function blazepose(
  inputs: readonly ExportTensor[],
  outputs: readonly ExportTensor[],
  ranges: ReadonlyMap<string, ObservedRange>,
): BlazeposeLayout | string {
  const img = nhwcImage(inputs);
  if (typeof img === 'string') return img;
  const { h, w } = img;
  if (h !== w || h % 4 !== 0) return `input ${h}x${w} is not a square multiple of 4`;
  if (outputs.length !== 5) return `${outputs.length} outputs, not 5`;
  const floats = outputs.filter((o) => o.elemType === 'float32');
  if (floats.length !== 5) return 'not every output is float32';
  // Heatmaps fix the landmark count; every other output is then found by its exact shape.
  const heatmaps = floats.find((o) => {
    const d = fixedDims(o);
    return d?.length === 4 && d[0] === 1 && d[1] === h / 4 && d[2] === w / 4;
  });
  const landmarkCount = heatmaps ? (fixedDims(heatmaps)?.[3] ?? 0) : 0;
  if (heatmaps === undefined || landmarkCount < BLAZEPOSE_BODY_LANDMARKS) {
    return `no heatmaps [1,${h / 4},${w / 4},L] with L >= ${BLAZEPOSE_BODY_LANDMARKS}`;
  }
  const find = (dims: number[]): ExportTensor | undefined =>
    floats.find((o) => o !== heatmaps && sameDims(fixedDims(o), dims));
  const landmarks = find([1, landmarkCount * 5]);
  const personScore = find([1, 1]);
  const segmentation = find([1, h, w, 1]);
  const worldLandmarks = find([1, landmarkCount * 3]);
  if (!landmarks || !personScore || !segmentation || !worldLandmarks) {
    return `outputs are not [1,${landmarkCount * 5}], [1,1], [1,${h},${w},1], heatmaps, [1,${landmarkCount * 3}]`;
  }
  if (!within01(ranges.get(personScore.name))) {
    return `output '${personScore.name}' [1,1] left 0..1 on the check images: not a probability`;
  }
  return {
    kind: 'blazepose-landmarks',
    input: img.t,
    landmarkCount,
    landmarks,
    personScore,
    segmentation,
    heatmaps,
    worldLandmarks,
  };
}

/** How `model import FILE.tflite` finds this layout in a converted model, and its manifest. */
export const BLAZEPOSE_TFLITE_LAYOUT = {
  label: 'BlazePose landmarks',
  kind: 'mediapipe-blazepose',
  title: 'MediaPipe BlazePose landmarks',
  recognize: blazepose,
  manifest(layout, x) {
    return {
      ...x.base,
      task: 'pose',
      family: 'blazepose',
      input: x.nhwcInput(layout.input, { mode: 'letterbox', padValue: 0 }),
      outputs: {
        format: 'blazepose-landmarks',
        landmarks: specOf(layout.landmarks),
        personScore: specOf(layout.personScore),
        segmentation: { ...specOf(layout.segmentation), layout: 'NHWC' },
        heatmaps: { ...specOf(layout.heatmaps), layout: 'NHWC' },
        worldLandmarks: specOf(layout.worldLandmarks),
      },
      classNames: ['person'],
      keypoints: {
        names: [...BLAZEPOSE_KEYPOINT_NAMES],
        skeleton: BLAZEPOSE_SKELETON.map(([a, b]) => [a, b]),
      },
      notes: BLAZEPOSE_NOTES,
    };
  },
} as const satisfies TfliteLayoutRecognizer<BlazeposeLayout>;
