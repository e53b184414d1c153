import type { ModelFamily } from '../modelFamily';
import { AIHUB_SPLIT_FORMAT } from './aihubSplitFormat';
import { readAihubSplit } from './readAihubSplit';
import { ULTRALYTICS_IMPORTER } from './readUltralyticsExport';
import { ULTRALYTICS_END2END_FORMAT } from './ultralyticsEnd2endFormat';
import { ULTRALYTICS_PACKED_FORMAT } from './ultralyticsPackedFormat';

/**
 * YOLOv8 and its successors (YOLO11, YOLO26; Ultralytics' and Qualcomm AI Hub's exports): detect,
 * pose and segment from one head, in the packed, end-to-end (NMS inside) or AI Hub split layout.
 */
export const YOLOV8_FAMILY = {
  name: 'yolov8',
  tasks: ['detect', 'pose', 'segment'],
  formats: [ULTRALYTICS_PACKED_FORMAT, ULTRALYTICS_END2END_FORMAT, AIHUB_SPLIT_FORMAT],
  ultralytics: ULTRALYTICS_IMPORTER,
  aihub: { outputs: 'boxes/scores/class_idx(/mask_coeffs/mask_protos)', read: readAihubSplit },
} as const satisfies ModelFamily;
