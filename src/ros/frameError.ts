/** Why a serialized image message was rejected. Stable strings: counted in diagnostics and tests. */
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
  | 'EMPTY_DATA';

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
