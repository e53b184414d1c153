import { z } from 'zod';
import { tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';

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
    const d = o.heatmaps.dims;
    const k = o.heatmaps.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4) issue(['outputs', 'heatmaps', 'dims'], `expected rank 4, got ${d.length}`);
    else if (k !== m.keypoints.names.length) {
      issue(
        ['outputs', 'heatmaps', 'dims'],
        `${k} heatmaps for ${m.keypoints.names.length} keypoints`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.heatmaps', spec: o.heatmaps }],
} as const satisfies OutputFormat<typeof schema>;
