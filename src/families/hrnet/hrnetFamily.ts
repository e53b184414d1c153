import type { ModelFamily } from '../modelFamily';
import { HEATMAPS_FORMAT } from './heatmapsFormat';
import { readAihubHeatmaps } from './readAihubHeatmaps';

/** HRNet top-down pose: one person per crop, a heatmap per keypoint. */
export const HRNET_FAMILY = {
  name: 'hrnet',
  tasks: ['pose'],
  formats: [HEATMAPS_FORMAT],
  aihub: { outputs: 'heatmaps', read: readAihubHeatmaps },
} as const satisfies ModelFamily;
