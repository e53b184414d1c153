import type { ModelFamily } from '../modelFamily';
import { SELFIE_TFLITE_LAYOUT } from './recognizeSelfieLayout';
import { SEMANTIC_PROBABILITY_FORMAT } from './semanticProbabilityFormat';

/** MediaPipe selfie segmentation: one class's probability per pixel, thresholded to a label map. */
export const SELFIE_SEGMENTATION_FAMILY = {
  name: 'selfie-segmentation',
  tasks: ['semantic'],
  formats: [SEMANTIC_PROBABILITY_FORMAT],
  tflite: SELFIE_TFLITE_LAYOUT,
} as const satisfies ModelFamily;
