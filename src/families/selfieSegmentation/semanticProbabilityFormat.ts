import { z } from 'zod';
import { tensorLayout, tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { rank4Channels } from '../layoutChannels';
import { outputNamed } from '../outputNamed';
import { decodeSemanticProbability } from './decodeSemanticProbability';

const DEFAULT_PROBABILITY_THRESHOLD = 0.5;

/**
 * One channel per pixel holding the probability (sigmoid inside the model) of classNames[1]; the
 * background's is 1 - p (MediaPipe selfie segmentation: background, person).
 */
const schema = z.strictObject({
  format: z.literal('semantic-probability'),
  probability: tensorSpec.extend({ layout: tensorLayout }),
});
export type SemanticProbabilityOutputs = z.infer<typeof schema>;

export const SEMANTIC_PROBABILITY_FORMAT = {
  format: 'semantic-probability',
  schema,
  check(o, m, issue) {
    const c = rank4Channels(o.probability, 'probability', issue);
    if (c !== undefined && c !== 1)
      issue(['outputs', 'probability', 'dims'], `${c} channels, one probability expected`);
    if (m.classNames.length !== 2) {
      issue(
        ['classNames'],
        `a probability map has two classes (background, then the one it scores), got ${m.classNames.length}`,
      );
    }
  },
  tensors: (o) => [{ field: 'outputs.probability', spec: o.probability }],
  decode(o, run, ctx) {
    const map = decodeSemanticProbability(
      outputNamed(run.outputs, o.probability.name, ctx.manifest.name),
      run.transform,
      ctx.thresholds.probability ?? DEFAULT_PROBABILITY_THRESHOLD,
      o.probability.layout,
      { remapLabels: ctx.kernels.remapLabels, zeroedBytes: ctx.kernels.zeroedBytes },
    );
    return { task: 'semantic', map };
  },
} as const satisfies OutputFormat<typeof schema>;
