import type { ModelFamily } from '../modelFamily';
import { readAihubArgmax } from './readAihubArgmax';
import { readTfliteMetadataSemantic } from './readTfliteMetadataSemantic';
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
  aihub: { outputs: 'mask', read: readAihubArgmax },
  fromTfliteMetadata: readTfliteMetadataSemantic,
} as const satisfies ModelFamily;
