import { z } from 'zod';
import { tensorLayout, tensorSpec } from '../manifestParts';
import { decodeDeeplab } from '../../heads/decodeDeeplab';
import type { OutputFormat } from '../modelFamily';
import { rank4Channels } from '../layoutChannels';
import { outputNamed } from '../outputNamed';

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
    const c = rank4Channels(o.logits, 'logits', issue);
    if (c !== undefined && c !== m.classNames.length) {
      issue(
        ['outputs', 'logits', 'dims'],
        `${c} logit channels for ${m.classNames.length} classes`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.logits', spec: o.logits }],
  decode(o, run, ctx) {
    const map = decodeDeeplab(
      outputNamed(run.outputs, o.logits.name, ctx.manifest.name),
      run.transform,
      {
        remapLabels: ctx.kernels.remapLabels,
        zeroedBytes: ctx.kernels.zeroedBytes,
        format: 'logits',
        layout: o.logits.layout,
      },
    );
    return { task: 'semantic', map };
  },
} as const satisfies OutputFormat<typeof schema>;
