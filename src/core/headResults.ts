/**
 * Result types every head returns. All coordinates are in SOURCE-IMAGE pixels (the full camera
 * image, before any ROI crop or letterbox), continuous: the top-left corner of the image is (0, 0),
 * the bottom-right corner is (width, height), so the centre of pixel (i, j) is (i + 0.5, j + 0.5).
 */

/** Axis-aligned box by its corners, source pixels, x1 <= x2 and y1 <= y2. */
export interface Box {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface Detection {
  readonly box: Box;
  /** Index into the model's class names (COCO: 0 = person). */
  readonly classId: number;
  /** Confidence in 0..1 as the model reports it (class score; YOLOv8 has no objectness). */
  readonly score: number;
  /**
   * Track id (1..65535, stable across frames) when the node tracks (src/tracking); heads never
   * set it.
   */
  readonly trackId?: number;
}

export interface Keypoint {
  /** Source pixels. */
  readonly x: number;
  readonly y: number;
  /** Visibility / confidence in 0..1 (HRNet: heatmap peak value, not bounded to 1). */
  readonly score: number;
}

/** One person: the detection box and its keypoints in the model's fixed keypoint order. */
export interface PersonPose extends Detection {
  readonly keypoints: readonly Keypoint[];
}

/**
 * Binary mask of one instance over an integer pixel region of the source image, so a mask costs
 * the size of its box rather than the size of the image. `data[r * width + c]` is 1 when source
 * pixel (x + c, y + r) belongs to the instance, else 0.
 */
export interface InstanceMask {
  /** Top-left source pixel of the region (integers, inside the image). */
  readonly x: number;
  readonly y: number;
  /** Region size in pixels (may be 0 for an instance that covers no pixel centre). */
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

export interface SegmentedDetection extends Detection {
  readonly mask: InstanceMask;
}

/** Per-pixel class labels at source resolution, row-major, one byte per pixel (mono8). */
export interface SemanticMap {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}
