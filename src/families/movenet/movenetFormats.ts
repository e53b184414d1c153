import { z } from 'zod';
import { tensorSpec } from '../manifestParts';
import type { ManifestView, IssueSink, OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeMovenetMultipose, decodeMovenetSinglepose } from './decodeMovenet';

const multiposeSchema = z.strictObject({
  format: z.literal('movenet-multipose'),
  /** [1, P, 3K + 5]: per person K x (y, x, score), then ymin, xmin, ymax, xmax, score. */
  poses: tensorSpec,
});

const singleposeSchema = z.strictObject({
  format: z.literal('movenet-singlepose'),
  /** [1, 1, K, 3]: the crop's person, K x (y, x, score). */
  keypoints: tensorSpec,
});

function keypointCount(m: ManifestView, issue: IssueSink): number | undefined {
  if (m.task !== 'pose')
    issue(['task'], `MoveNet estimates poses: task must be pose, not ${m.task}`);
  if (m.keypoints === undefined) issue(['keypoints'], 'MoveNet manifests name their keypoints');
  return m.keypoints?.names.length;
}

/** MoveNet MultiPose: whole frame, up to P people with their boxes, no detector needed. */
export const MOVENET_MULTIPOSE_FORMAT = {
  format: 'movenet-multipose',
  schema: multiposeSchema,
  check(o, m, issue) {
    const k = keypointCount(m, issue);
    const d = o.poses.dims;
    if (d.length !== 3) issue(['outputs', 'poses', 'dims'], `expected rank 3, got ${d.length}`);
    else if (k !== undefined && d[2] !== -1 && d[2] !== 3 * k + 5) {
      issue(
        ['outputs', 'poses', 'dims'],
        `${d[2]} values a person, but ${k} keypoints make ${3 * k + 5}`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.poses', spec: o.poses }],
  decode(o, run, ctx) {
    const m = ctx.manifest;
    const poses = decodeMovenetMultipose(
      outputNamed(run.outputs, o.poses.name, m.name),
      run.transform,
      {
        scoreThreshold: ctx.thresholds.score,
        maxDetections: ctx.thresholds.maxDetections,
        numKeypoints: m.keypoints?.names.length ?? 0,
      },
    );
    return { task: 'pose', poses };
  },
} as const satisfies OutputFormat<typeof multiposeSchema>;

/** MoveNet Lightning / Thunder: top-down, one person per crop of a detector's box. */
export const MOVENET_SINGLEPOSE_FORMAT = {
  format: 'movenet-singlepose',
  schema: singleposeSchema,
  check(o, m, issue) {
    const k = keypointCount(m, issue);
    const d = o.keypoints.dims;
    if (d.length !== 4 || (d[3] !== -1 && d[3] !== 3)) {
      issue(['outputs', 'keypoints', 'dims'], `expected [1, 1, K, 3], got [${d.join(', ')}]`);
    } else if (k !== undefined && d[2] !== -1 && d[2] !== k) {
      issue(['outputs', 'keypoints', 'dims'], `${d[2]} keypoints in the output, ${k} named`);
    }
  },
  tensors: (o) => [{ field: 'outputs.keypoints', spec: o.keypoints }],
  /** The pose's score is the mean of its keypoints' scores. */
  decodeCrop(o, run, ctx) {
    const m = ctx.manifest;
    const keypoints = decodeMovenetSinglepose(
      outputNamed(run.outputs, o.keypoints.name, m.name),
      run.transform,
      m.keypoints?.names.length ?? 0,
    );
    const score = keypoints.length
      ? keypoints.reduce((a, k) => a + k.score, 0) / keypoints.length
      : 0;
    return { score, keypoints };
  },
} as const satisfies OutputFormat<typeof singleposeSchema>;
