import { z } from 'zod';
import { boxEncoding, tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeYoloOutputs } from './decodeYoloOutputs';

/** Qualcomm AI Hub export: separate boxes / scores / class_idx (+ mask_coeffs / mask_protos). */
const schema = z.strictObject({
  format: z.literal('aihub-split'),
  boxesTensor: tensorSpec,
  boxes: boxEncoding,
  scores: tensorSpec,
  classIdx: tensorSpec,
  maskCoeffs: tensorSpec.optional(),
  maskProtos: tensorSpec.extend({ layout: tensorLayout }).optional(),
});
export type AihubSplitOutputs = z.infer<typeof schema>;

export const AIHUB_SPLIT_FORMAT = {
  format: 'aihub-split',
  schema,
  check(o, m, issue) {
    if (m.task === 'segment' && (o.maskCoeffs === undefined || o.maskProtos === undefined)) {
      issue(['outputs', 'maskProtos'], 'segment models need maskCoeffs and maskProtos');
    }
  },
  tensors: (o) => [
    { field: 'outputs.boxesTensor', spec: o.boxesTensor },
    { field: 'outputs.scores', spec: o.scores },
    { field: 'outputs.classIdx', spec: o.classIdx },
    { field: 'outputs.maskCoeffs', spec: o.maskCoeffs },
    { field: 'outputs.maskProtos', spec: o.maskProtos },
  ],
  decode(o, run, ctx) {
    const model = ctx.manifest.name;
    return decodeYoloOutputs(
      {
        format: 'aihub',
        boxes: outputNamed(run.outputs, o.boxesTensor.name, model),
        scores: outputNamed(run.outputs, o.scores.name, model),
        classIdx: outputNamed(run.outputs, o.classIdx.name, model),
      },
      { protos: o.maskProtos, maskCoefficients: o.maskCoeffs },
      o.boxes.units === 'normalized',
      run,
      ctx,
    );
  },
} as const satisfies OutputFormat<typeof schema>;
