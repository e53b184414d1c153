import type { ModelFamily } from '../modelFamily';
import { MOVENET_MULTIPOSE_FORMAT, MOVENET_SINGLEPOSE_FORMAT } from './movenetFormats';
import {
  MOVENET_MULTIPOSE_TFJS_LAYOUT,
  MOVENET_SINGLEPOSE_TFJS_LAYOUT,
} from './recognizeMovenetTfjs';

/**
 * Google's MoveNet (TF Hub, Apache-2.0), COCO's 17 keypoints: MultiPose finds up to six people
 * in the whole frame with their boxes (bottom-up, no detector); Lightning and Thunder estimate
 * one person in a crop of a detector's box (top-down, like HRNet).
 */
export const MOVENET_FAMILY = {
  name: 'movenet',
  tasks: ['pose'],
  formats: [MOVENET_MULTIPOSE_FORMAT, MOVENET_SINGLEPOSE_FORMAT],
  tfjs: [MOVENET_MULTIPOSE_TFJS_LAYOUT, MOVENET_SINGLEPOSE_TFJS_LAYOUT],
} as const satisfies ModelFamily;
