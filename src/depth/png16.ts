/**
 * A 16-bit greyscale PNG (what image_transport's compressedDepth writes) decoded to its samples.
 * Only that kind: colour, palette, other bit depths and interlaced images are refused by name, so
 * a depth stream that is not what we read says so instead of yielding wrong distances. Hostile
 * bytes cannot make it read out of range or inflate past the size the header declares.
 */
import * as zlib from 'node:zlib';

export class PngError extends Error {
  override readonly name = 'PngError';
}

export interface Png16 {
  readonly width: number;
  readonly height: number;
  /** Row-major samples. */
  readonly samples: Uint16Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function decodePng16(png: Uint8Array, maxDimension: number): Png16 {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) {
    throw new PngError('not a PNG (no PNG signature)');
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let header: { width: number; height: number } | undefined;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (at + 12 <= png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (length > png.length - at - 12) throw new PngError(`chunk ${type} runs past the data`);
    const body = png.subarray(at + 8, at + 8 + length);
    const crc = view.getUint32(at + 8 + length);
    if (zlib.crc32(png.subarray(at + 4, at + 8 + length)) !== crc) {
      throw new PngError(`chunk ${type}: CRC mismatch`);
    }
    at += 12 + length;
    if (type === 'IHDR') header = readHeader(body, maxDimension);
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!header) throw new PngError('no IHDR chunk');
  if (!ended) throw new PngError('cut short: no IEND chunk');
  if (idat.length === 0) throw new PngError('no image data (IDAT)');
  const rowBytes = header.width * 2;
  const expected = header.height * (rowBytes + 1);
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch (e) {
    throw new PngError(
      `image data does not inflate: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (raw.length !== expected) {
    throw new PngError(
      `image data inflates to ${raw.length} bytes, ${header.width}x${header.height} needs ${expected}`,
    );
  }
  return { ...header, samples: unfilter(raw, header.width, header.height) };
}

function readHeader(body: Uint8Array, maxDimension: number): { width: number; height: number } {
  if (body.length !== 13) throw new PngError(`IHDR of ${body.length} bytes, not 13`);
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const width = v.getUint32(0);
  const height = v.getUint32(4);
  const [depth, colour, compression, filter, interlace] = body.subarray(8);
  if (width === 0 || height === 0) throw new PngError(`image is ${width}x${height}`);
  if (width > maxDimension || height > maxDimension) {
    throw new PngError(`image is ${width}x${height}, limit ${maxDimension}`);
  }
  if (colour !== 0 || depth !== 16) {
    throw new PngError(
      `colour type ${colour}, ${depth}-bit: depth PNGs are 16-bit greyscale (colour type 0)`,
    );
  }
  if (compression !== 0 || filter !== 0) throw new PngError('unknown compression or filter method');
  if (interlace !== 0) throw new PngError('interlaced (Adam7) PNG: depth PNGs are not interlaced');
  return { width, height };
}

/** PNG's per-row filters undone (2 bytes per pixel), big-endian samples read out. */
function unfilter(raw: Buffer, width: number, height: number): Uint16Array {
  const rowBytes = width * 2;
  const bpp = 2;
  // Two rows swapped in turn: every byte of `cur` is written before it is read again.
  let cur = new Uint8Array(rowBytes);
  let prev = new Uint8Array(rowBytes);
  const out = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    const start = y * (rowBytes + 1);
    const filter = raw[start]!;
    const src = raw.subarray(start + 1, start + 1 + rowBytes);
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? cur[i - bpp]! : 0;
      const b = prev[i]!;
      const c = i >= bpp ? prev[i - bpp]! : 0;
      let x = src[i]!;
      switch (filter) {
        case 0:
          break;
        case 1:
          x += a;
          break;
        case 2:
          x += b;
          break;
        case 3:
          x += (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          x += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new PngError(`row ${y}: unknown filter type ${filter}`);
      }
      cur[i] = x & 0xff;
    }
    for (let i = 0; i < width; i++) out[y * width + i] = (cur[2 * i]! << 8) | cur[2 * i + 1]!;
    [prev, cur] = [cur, prev];
  }
  return out;
}
