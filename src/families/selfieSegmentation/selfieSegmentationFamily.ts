import type { ModelFamily } from '../modelFamily';
import { SEMANTIC_PROBABILITY_FORMAT } from './semanticProbabilityFormat';

/** MediaPipe selfie segmentation: one class's probability per pixel, thresholded to a label map. */
export const SELFIE_SEGMENTATION_FAMILY = {
  name: 'selfie-segmentation',
  tasks: ['semantic'],
  formats: [SEMANTIC_PROBABILITY_FORMAT],
} as const satisfies ModelFamily;
