/** Why a head refused its input. Stable strings: nodes count them in diagnostics, tests match them. */
export type HeadErrorCode =
  'BAD_SHAPE' | 'BAD_DATA_LENGTH' | 'BAD_DTYPE' | 'BAD_OPTION' | 'BAD_TRANSFORM' | 'BAD_VALUE';

/**
 * A tensor or option a head cannot decode (wrong rank, sizes that disagree, a non-finite
 * threshold...). Thrown synchronously; the node counts it by `code` and drops the frame.
 */
export class HeadError extends Error {
  override readonly name = 'HeadError';
  constructor(
    readonly code: HeadErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
