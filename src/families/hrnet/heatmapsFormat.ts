import { z } from 'zod';
import { tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { rank4Channels } from '../layoutChannels';
import { outputNamed } from '../outputNamed';
import { decodeHrnetHeatmaps } from './decodeHrnetHeatmaps';

/** One heatmap per keypoint, [1, K, H, W] or [1, H, W, K]; a joint is its heatmap's peak. */
const schema = z.strictObject({
  format: z.literal('heatmaps'),
  heatmaps: tensorSpec.extend({ layout: tensorLayout }),
});
export type HeatmapsOutputs = z.infer<typeof schema>;

export const HEATMAPS_FORMAT = {
  format: 'heatmaps',
  schema,
  check(o, m, issue) {
    if (m.keypoints === undefined) return;
    const k = rank4Channels(o.heatmaps, 'heatmaps', issue);
    if (k !== undefined && k !== m.keypoints.names.length) {
      issue(
        ['outputs', 'heatmaps', 'dims'],
        `${k} heatmaps for ${m.keypoints.names.length} keypoints`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.heatmaps', spec: o.heatmaps }],
  /** The pose's score is the mean of its joints' peaks (not bounded to 1). */
  decodeCrop(o, run, ctx) {
    const m = ctx.manifest;
    const [keypoints] = decodeHrnetHeatmaps(
      outputNamed(run.outputs, o.heatmaps.name, m.name),
      [run.transform],
      {
        layout: o.heatmaps.layout,
        numKeypoints: m.keypoints?.names.length,
        planePeaks: ctx.kernels.planePeaks,
        peaks: run.channelPeaks,
      },
    );
    const scores = (keypoints ?? []).map((k) => k.score);
    return {
      score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0,
      keypoints: keypoints ?? [],
    };
  },
  /**
   * Float heatmaps: their joints' peaks are found on the engine's worker, beside the values it
   * just wrote, instead of by the head on the main thread (NHWC heatmaps, the compiled AI Hub
   * layout, cost the head 0.54 ms per frame of five people in TypeScript). Integer heatmaps stay
   * with the head, which knows their quantization.
   */
  outputPeaks(o) {
    const h = o.heatmaps;
    if (h.dtype !== 'float32' && h.dtype !== 'float16') return undefined;
    return { output: h.name, layout: h.layout };
  },
  validationNote:
    'top-down pose: both precisions get the same box (the whole image), so the box rows are ' +
    'equal by construction; the score is the mean heatmap peak, which is not bounded to 1',
} as const satisfies OutputFormat<typeof schema>;
