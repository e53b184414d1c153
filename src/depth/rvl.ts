/**
 * RVL, the run-length / variable-length depth codec of Wilson's "Fast Lossless Depth Image
 * Compression" (2017), as image_transport's compressedDepth sends it: alternating runs of zero and
 * non-zero pixels, each run length and each non-zero pixel's zigzagged difference from the
 * previous one written as 3-bit groups with a continuation bit, eight such nibbles to a
 * little-endian 32-bit word, first nibble in the top bits. Hostile streams are refused (a run past
 * the image, a value no 16-bit pixel has, words cut short), never read out of range.
 */

export class RvlError extends Error {
  override readonly name = 'RvlError';
}

/** Groups of a value before it is longer than any valid run length or difference needs. */
const MAX_GROUPS = 11;

export function decodeRvl(stream: Uint8Array, pixels: number): Uint16Array {
  const words = Math.floor(stream.length / 4);
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let next = 0;
  let word = 0;
  let left = 0;
  const vle = (): number => {
    let value = 0;
    for (let group = 0; ; group++) {
      if (group === MAX_GROUPS) throw new RvlError('a value longer than 33 bits');
      if (left === 0) {
        if (next === words) throw new RvlError('stream cut short');
        word = view.getUint32(4 * next++, true);
        left = 8;
      }
      const nibble = word >>> 28;
      word = (word << 4) >>> 0;
      left--;
      value += (nibble & 7) * 8 ** group;
      if ((nibble & 8) === 0) return value;
    }
  };
  const out = new Uint16Array(pixels);
  let at = 0;
  let previous = 0;
  while (at < pixels) {
    const zeros = vle();
    if (zeros > pixels - at) throw new RvlError(`a run of ${zeros} zeros past the image's end`);
    at += zeros; // already 0
    const nonzeros = vle();
    if (nonzeros > pixels - at) {
      throw new RvlError(`a run of ${nonzeros} pixels past the image's end`);
    }
    for (let i = 0; i < nonzeros; i++) {
      const positive = vle();
      const delta = positive % 2 === 0 ? positive / 2 : -(positive + 1) / 2;
      const current = previous + delta;
      if (current < 0 || current > 0xffff) throw new RvlError(`pixel ${at} decodes to ${current}`);
      out[at++] = current;
      previous = current;
    }
  }
  return out;
}
