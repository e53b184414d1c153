import type sharp from 'sharp';

let loaded: typeof sharp | undefined;

/**
 * sharp (libvips), loaded on first use. Loading it costs a process about 19 MB of RSS, and a
 * perception node needs it only to draw annotated pictures or decode compressed frames, which
 * many robots never ask for.
 */
export function loadSharp(): typeof sharp {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('sharp') as typeof sharp;
  return loaded;
}
