import type { ModelFamily } from '../modelFamily';
import { BLAZEPOSE_LANDMARKS_FORMAT } from './blazeposeLandmarksFormat';
import { BLAZEPOSE_TFLITE_LAYOUT } from './recognizeBlazeposeLayout';

/** MediaPipe's BlazePose GHUM landmark models: top-down pose, one person per crop. */
export const BLAZEPOSE_FAMILY = {
  name: 'blazepose',
  tasks: ['pose'],
  formats: [BLAZEPOSE_LANDMARKS_FORMAT],
  tflite: BLAZEPOSE_TFLITE_LAYOUT,
} as const satisfies ModelFamily;
