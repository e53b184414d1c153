/**
 * A camera frame as every layer sees it: pixel bytes with their size, row step and encoding (the
 * intake makes one from a ROS message, the photos reader from a file, the engine preprocesses it),
 * and a region of it for top-down crops.
 */
import type { ImageEncoding } from './imageEncoding';

export type FrameEncoding = ImageEncoding;

export interface Frame {
  /** Pixel bytes; may be a view into a larger buffer. Kept referenced until the run settles. */
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Bytes per row (for nv12, of both planes). */
  readonly step: number;
  readonly encoding: FrameEncoding;
}

/** A region of the frame in source pixels (pixel i covers [i, i + 1)). */
export interface Roi {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /**
   * 'reject' (default): whole pixels inside the frame, resized as the preprocess options say.
   * 'pad': any region overlapping the frame (fractional, may extend past its edges), stretched
   * onto the whole input; input pixels whose centre maps outside the frame get `padValue` (the
   * top-down crop of HRNet: the box keeps the input's aspect ratio, black beyond the image).
   */
  readonly outside?: 'reject' | 'pad';
}

/** Largest |x|, |y|, width and height of a 'pad' ROI (far beyond any real crop). */
export const MAX_ROI_EXTENT = 1 << 20;
