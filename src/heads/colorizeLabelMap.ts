import { HeadError } from './headError';
import type { SemanticMap } from '../core/headResults';
import { VOC_PALETTE } from './vocPalette';

/** rgb8 image of a label map, one palette colour (r, g, b per label) per pixel. */
export function colorizeLabelMap(map: SemanticMap, palette: Uint8Array = VOC_PALETTE): Uint8Array {
  if (map.data.length !== map.width * map.height) {
    throw new HeadError(
      'BAD_DATA_LENGTH',
      `label map ${map.width}x${map.height} holds ${map.data.length} bytes`,
    );
  }
  if (palette.length % 3 !== 0 || palette.length === 0) {
    throw new HeadError(
      'BAD_OPTION',
      `palette must hold r, g, b triples, got ${palette.length} bytes`,
    );
  }
  const entries = palette.length / 3;
  const out = new Uint8Array(map.data.length * 3);
  for (let i = 0; i < map.data.length; i++) {
    const l = map.data[i]!;
    // Labels beyond a short palette are drawn black rather than reading past it.
    if (l >= entries) continue;
    out[3 * i] = palette[3 * l]!;
    out[3 * i + 1] = palette[3 * l + 1]!;
    out[3 * i + 2] = palette[3 * l + 2]!;
  }
  return out;
}
