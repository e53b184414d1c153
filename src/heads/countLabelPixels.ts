import type { SemanticMap } from '../core/headResults';

/** Pixels per label: result[l] is how many pixels carry label l (256 entries, mono8 range). */
export function countLabelPixels(map: SemanticMap): Uint32Array {
  const counts = new Uint32Array(256);
  const d = map.data;
  for (let i = 0; i < d.length; i++) counts[d[i]!]!++;
  return counts;
}
