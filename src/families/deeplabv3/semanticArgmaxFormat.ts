import { z } from 'zod';
import { tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';

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
} as const satisfies OutputFormat<typeof schema>;
