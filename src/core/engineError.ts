/**
 * Every failure of the engine carries one of these stable codes (documented in docs/engine.md).
 * Codes come from the addon for native failures and from the facade for option and frame checks.
 */
export type EngineErrorCode =
  | 'ERR_ADDON_MISSING'
  | 'ERR_INVALID_OPTIONS'
  | 'ERR_MODEL_NOT_FOUND'
  | 'ERR_MODEL_INVALID'
  | 'ERR_INPUT_MISMATCH'
  | 'ERR_PROVIDER_UNAVAILABLE'
  | 'ERR_RUNTIME_MISSING'
  | 'ERR_ACCELERATOR_FALLBACK'
  | 'ERR_FRAME_INVALID'
  | 'ERR_ROI_INVALID'
  | 'ERR_DISPOSED'
  | 'ERR_BUSY'
  | 'ERR_RUNTIME'
  | 'ERR_DEADLINE';

const KNOWN = new Set<string>([
  'ERR_ADDON_MISSING',
  'ERR_INVALID_OPTIONS',
  'ERR_MODEL_NOT_FOUND',
  'ERR_MODEL_INVALID',
  'ERR_INPUT_MISMATCH',
  'ERR_PROVIDER_UNAVAILABLE',
  'ERR_RUNTIME_MISSING',
  'ERR_ACCELERATOR_FALLBACK',
  'ERR_FRAME_INVALID',
  'ERR_ROI_INVALID',
  'ERR_DISPOSED',
  'ERR_BUSY',
  'ERR_RUNTIME',
  'ERR_DEADLINE',
]);

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Re-throws a native failure at the JS call site (fresh stack), keeping its code. */
  static fromNative(err: unknown): EngineError {
    if (err instanceof EngineError) return err;
    if (err instanceof Error) {
      const code = (err as Error & { code?: unknown }).code;
      if (typeof code === 'string' && KNOWN.has(code)) {
        return new EngineError(code as EngineErrorCode, err.message);
      }
      return new EngineError('ERR_RUNTIME', err.message);
    }
    return new EngineError('ERR_RUNTIME', String(err));
  }
}
