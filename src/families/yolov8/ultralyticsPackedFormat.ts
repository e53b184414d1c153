import { z } from 'zod';
import { boxEncoding, tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeYoloOutputs } from './decodeYoloOutputs';
import { yoloRowExtras } from './yoloRowExtras';

/**
 * Ultralytics export: one tensor [1, 4 + C (+ 32 mask coeffs) (+ K*3 keypoints), N]
 * ("channels-first", as exported to ONNX) or its transpose [1, N, ...] ("anchors-first", as
 * some TFLite exports are). Segmentation adds the prototypes tensor.
 */
const schema = z.strictObject({
  format: z.literal('ultralytics-packed'),
  predictions: tensorSpec.extend({ layout: z.enum(['channels-first', 'anchors-first']) }),
  boxes: boxEncoding,
  /** Class scores are probabilities already (sigmoid inside the graph) in Ultralytics exports. */
  scoresActivated: z.boolean(),
  maskCoefficients: z.number().int().positive().optional(),
  protos: tensorSpec.extend({ layout: tensorLayout }).optional(),
});
export type UltralyticsPackedOutputs = z.infer<typeof schema>;

export const ULTRALYTICS_PACKED_FORMAT = {
  format: 'ultralytics-packed',
  schema,
  check(o, m, issue) {
    const nc = m.task === 'pose' ? 1 : m.classNames.length;
    const expected = 4 + nc + yoloRowExtras(o, m, issue);
    const d = o.predictions.dims;
    const channels = o.predictions.layout === 'channels-first' ? d[1] : d[2];
    if (d.length !== 3) {
      issue(['outputs', 'predictions', 'dims'], `expected rank 3, got ${d.length}`);
    } else if (channels !== expected && channels !== -1) {
      issue(
        ['outputs', 'predictions', 'dims'],
        `${o.predictions.layout} channel dim is ${channels} but 4 box + classes/keypoints/coefficients make ${expected}`,
      );
    }
  },
  tensors: (o) => [
    { field: 'outputs.predictions', spec: o.predictions },
    { field: 'outputs.protos', spec: o.protos },
  ],
  decode: (o, run, ctx) =>
    decodeYoloOutputs(
      {
        format: 'ultralytics',
        output: outputNamed(run.outputs, o.predictions.name, ctx.manifest.name),
        anchorsFirst: o.predictions.layout === 'anchors-first',
      },
      { protos: o.protos },
      o.boxes.units === 'normalized',
      run,
      ctx,
    ),
} as const satisfies OutputFormat<typeof schema>;
