import type { ModelFamily } from '../modelFamily';
import { NANODET_GFL_FORMAT } from './nanodetGflFormat';
import { NANODET_TFJS_LAYOUT } from './recognizeNanodetTfjs';

/**
 * NanoDet (RangiLyu/nanodet, Apache-2.0): an anchor-free COCO detector whose Generalized Focal
 * Loss head gives each grid cell class probabilities and, per box side, a distribution over
 * distances; permissively licensed weights beside Ultralytics' AGPL ones.
 */
export const NANODET_FAMILY = {
  name: 'nanodet',
  tasks: ['detect'],
  formats: [NANODET_GFL_FORMAT],
  tfjs: [NANODET_TFJS_LAYOUT],
} as const satisfies ModelFamily;
