import { z } from 'zod';
import { tensorSpec } from '../manifestParts';
import { decodeDeeplab } from '../../heads/decodeDeeplab';
import type { OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';

const schema = z.strictObject({
  format: z.literal('semantic-argmax'),
  /** [1, H, W] class index per pixel: the argmax is inside the model. */
  mask: tensorSpec,
});
export type SemanticArgmaxOutputs = z.infer<typeof schema>;

export const SEMANTIC_ARGMAX_FORMAT = {
  format: 'semantic-argmax',
  schema,
  tensors: (o) => [{ field: 'outputs.mask', spec: o.mask }],
  decode(o, run, ctx) {
    const map = decodeDeeplab(
      outputNamed(run.outputs, o.mask.name, ctx.manifest.name),
      run.transform,
      {
        remapLabels: ctx.kernels.remapLabels,
        zeroedBytes: ctx.kernels.zeroedBytes,
        format: 'labels',
      },
    );
    return { task: 'semantic', map };
  },
} as const satisfies OutputFormat<typeof schema>;
