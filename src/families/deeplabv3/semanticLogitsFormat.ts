import { z } from 'zod';
import { tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';

/** One score per class and pixel; a pixel's label is the argmax, taken by the head. */
const schema = z.strictObject({
  format: z.literal('semantic-logits'),
  logits: tensorSpec.extend({ layout: tensorLayout }),
});
export type SemanticLogitsOutputs = z.infer<typeof schema>;

export const SEMANTIC_LOGITS_FORMAT = {
  format: 'semantic-logits',
  schema,
  check(o, m, issue) {
    const d = o.logits.dims;
    const c = o.logits.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4) issue(['outputs', 'logits', 'dims'], `expected rank 4, got ${d.length}`);
    else if (c !== m.classNames.length) {
      issue(
        ['outputs', 'logits', 'dims'],
        `${c} logit channels for ${m.classNames.length} classes`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.logits', spec: o.logits }],
} as const satisfies OutputFormat<typeof schema>;
