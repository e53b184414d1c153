import { z } from 'zod';
import { boxEncoding, tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeYoloOutputs } from './decodeYoloOutputs';
import { yoloRowExtras } from './yoloRowExtras';

/**
 * Ultralytics end-to-end export (`nms=True` exports; YOLOv10 and YOLO26 by default): NMS already
 * ran inside the graph. One tensor [1, N, 6 (+ M mask coefficients) (+ K*3 keypoints)] of rows
 * x1, y1, x2, y2, score, class id (a float), then the row's extra values, N being the export's
 * max_det (300); rows past the last detection are all zero. The graph has also applied its own
 * score threshold (the export's `conf`, 0.25 unless set): nothing below it ever arrives.
 * Segmentation adds the prototypes tensor, as in the packed layout.
 */
const schema = z.strictObject({
  format: z.literal('ultralytics-end2end'),
  predictions: tensorSpec,
  boxes: boxEncoding.extend({ format: z.literal('xyxy') }),
  maskCoefficients: z.number().int().positive().optional(),
  protos: tensorSpec.extend({ layout: tensorLayout }).optional(),
});
export type UltralyticsEnd2endOutputs = z.infer<typeof schema>;

export const ULTRALYTICS_END2END_FORMAT = {
  format: 'ultralytics-end2end',
  schema,
  /** End-to-end rows: 6 values, then the mask coefficients (segment) or keypoints (pose). */
  check(o, m, issue) {
    const expected = 6 + yoloRowExtras(o, m, issue);
    const d = o.predictions.dims;
    if (d.length !== 3) {
      issue(['outputs', 'predictions', 'dims'], `expected rank 3, got ${d.length}`);
    } else if (d[2] !== expected && d[2] !== -1) {
      issue(
        ['outputs', 'predictions', 'dims'],
        `rows of ${String(d[2])} values but x1, y1, x2, y2, score, class + coefficients/keypoints make ${expected}`,
      );
    }
  },
  tensors: (o) => [
    { field: 'outputs.predictions', spec: o.predictions },
    { field: 'outputs.protos', spec: o.protos },
  ],
  // The same heads as the packed layout's, which then skip their own NMS.
  decode: (o, run, ctx) =>
    decodeYoloOutputs(
      {
        format: 'end2end',
        output: outputNamed(run.outputs, o.predictions.name, ctx.manifest.name),
      },
      { protos: o.protos },
      o.boxes.units === 'normalized',
      run,
      ctx,
    ),
} as const satisfies OutputFormat<typeof schema>;
