/**
 * The one RGB picture type: tightly packed rgb8 pixels with their size. Annotation draws on it,
 * calibration captures save it, contact sheets tile it; a packed rgb8 camera frame already is one.
 */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  /** Tightly packed rgb8 pixels (row = width * 3 bytes). */
  readonly data: Uint8Array;
}
