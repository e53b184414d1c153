/**
 * Why a received message (image, depth image, CameraInfo) was rejected, or a compressed image's
 * data could not be decoded. Stable strings: counted per reason in diagnostics and tests.
 */
export type FrameErrorCode =
  | 'TRUNCATED'
  | 'BAD_ENCAPSULATION'
  | 'BAD_STRING'
  | 'BAD_HEADER'
  | 'UNKNOWN_ENCODING'
  | 'ZERO_SIZE'
  | 'TOO_LARGE'
  | 'BAD_GEOMETRY'
  | 'STEP_TOO_SMALL'
  | 'DATA_TOO_SHORT'
  | 'TRAILING_BYTES'
  | 'EMPTY_DATA'
  /** A CompressedImage whose data the decoder refuses (not JPEG / PNG, truncated, corrupt). */
  | 'UNDECODABLE';

/** A frame that cannot be processed. The node counts it by `code` and carries on. */
export class FrameError extends Error {
  override readonly name = 'FrameError';
  constructor(
    readonly code: FrameErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
