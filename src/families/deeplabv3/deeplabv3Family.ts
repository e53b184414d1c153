import type { ModelFamily } from '../modelFamily';
import { SEMANTIC_ARGMAX_FORMAT } from './semanticArgmaxFormat';
import { SEMANTIC_LOGITS_FORMAT } from './semanticLogitsFormat';

/**
 * DeepLabV3 and any semantic segmenter read the same way: a label per pixel, from class scores
 * (the head's argmax) or from the model's own argmax.
 */
export const DEEPLABV3_FAMILY = {
  name: 'deeplabv3',
  tasks: ['semantic'],
  formats: [SEMANTIC_LOGITS_FORMAT, SEMANTIC_ARGMAX_FORMAT],
} as const satisfies ModelFamily;
