import type { ModelFamily } from '../modelFamily';
import { BLAZEPOSE_LANDMARKS_FORMAT } from './blazeposeLandmarksFormat';

/** MediaPipe's BlazePose GHUM landmark models: top-down pose, one person per crop. */
export const BLAZEPOSE_FAMILY = {
  name: 'blazepose',
  tasks: ['pose'],
  formats: [BLAZEPOSE_LANDMARKS_FORMAT],
} as const satisfies ModelFamily;
