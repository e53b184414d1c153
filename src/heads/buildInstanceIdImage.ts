import { HeadError } from './headError';
import type { InstanceMask } from '../core/headResults';

/**
 * The mono16 instance-id image of a whole frame: pixel = ids[i] (default i + 1) where masks[i]
 * covers it, 0 for background. Where instances overlap the earlier one (higher score, as heads
 * return them) wins, so every id matches its detection's Detection2D.id.
 */
export function buildInstanceIdImage(
  masks: readonly InstanceMask[],
  width: number,
  height: number,
  ids?: readonly number[],
): Uint16Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new HeadError('BAD_OPTION', `image size must be integers >= 0, got ${width}x${height}`);
  }
  if (masks.length > 0xffff) {
    throw new HeadError('BAD_OPTION', `${masks.length} instances do not fit 16-bit ids`);
  }
  if (ids && ids.length !== masks.length) {
    throw new HeadError('BAD_OPTION', `${ids.length} ids for ${masks.length} instances`);
  }
  const bad = ids?.find((id) => !Number.isInteger(id) || id < 1 || id > 0xffff);
  if (bad !== undefined) {
    throw new HeadError('BAD_OPTION', `instance id ${bad} is not in 1..65535`);
  }
  const out = new Uint16Array(width * height);
  masks.forEach((m, i) => {
    if (m.data.length !== m.width * m.height) {
      throw new HeadError(
        'BAD_DATA_LENGTH',
        `mask ${i} is ${m.width}x${m.height} but holds ${m.data.length} bytes`,
      );
    }
    const id = ids ? ids[i]! : i + 1;
    for (let r = 0; r < m.height; r++) {
      const y = m.y + r;
      if (y < 0 || y >= height) continue;
      for (let c = 0; c < m.width; c++) {
        const x = m.x + c;
        if (x < 0 || x >= width || m.data[r * m.width + c] === 0) continue;
        const p = y * width + x;
        if (out[p] === 0) out[p] = id;
      }
    }
  });
  return out;
}
