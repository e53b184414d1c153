import { AnnotatedLabels } from './annotationTypes';
import { paletteColor } from '../core/palette';

/** RGBA overlay that tints every non-zero label with its palette colour at the given opacity. */
export function labelTint(l: AnnotatedLabels): Buffer {
  const n = l.width * l.height;
  if (l.labels.length !== n) {
    throw new RangeError(
      `label image has ${l.labels.length} values, expected ${l.width}x${l.height}`,
    );
  }
  const out = Buffer.alloc(n * 4);
  const alpha = Math.round(Math.min(1, Math.max(0, l.alpha)) * 255);
  for (let i = 0; i < n; i++) {
    const v = l.labels[i]!;
    if (v === 0) continue;
    const [r, g, b] = paletteColor(l.colorIndices?.[v] ?? v);
    const o = i * 4;
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = alpha;
  }
  return out;
}
