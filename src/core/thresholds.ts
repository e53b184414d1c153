/** A pipeline's per-frame thresholds, which the model families' decoders apply. */
export interface Thresholds {
  /** Keep detections scoring above this (YOLO heads). */
  readonly score: number;
  /** NMS IoU threshold. */
  readonly iou: number;
  readonly maxDetections: number;
  /** Only these class ids (undefined: all). */
  readonly classes?: readonly number[];
  /** Probability maps (selfie segmentation): a pixel is the class from this probability up. */
  readonly probability?: number;
}
