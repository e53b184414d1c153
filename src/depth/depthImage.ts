/**
 * An aligned depth image as REP-118 defines it: 16UC1 in millimetres or 32FC1 in metres, 0 (or
 * NaN) where the sensor has no depth. Reads values in place from the received bytes (any byte
 * order, any row step), so a frame is never copied.
 */

export type DepthEncoding = '16UC1' | '32FC1';

export interface DepthImageFields {
  readonly width: number;
  readonly height: number;
  /** Row stride in bytes. */
  readonly step: number;
  readonly encoding: DepthEncoding;
  readonly isBigEndian: boolean;
  /** Pixel bytes; may be a view into the received message. */
  readonly data: Uint8Array;
}

export class DepthImageError extends Error {
  override readonly name = 'DepthImageError';
}

/** The depth encodings we read, under the names drivers publish (mono16 is 16UC1's alias). */
export function parseDepthEncoding(name: string): DepthEncoding | undefined {
  const n = name.toUpperCase();
  if (n === '16UC1' || n === 'MONO16') return '16UC1';
  if (n === '32FC1') return '32FC1';
  return undefined;
}

export class DepthImage {
  readonly width: number;
  readonly height: number;
  private readonly view: DataView;
  private readonly step: number;
  private readonly little: boolean;
  private readonly is16: boolean;

  constructor(f: DepthImageFields) {
    const bytesPerPixel = f.encoding === '16UC1' ? 2 : 4;
    if (!(f.width > 0) || !(f.height > 0)) {
      throw new DepthImageError(`depth image is ${f.width}x${f.height}`);
    }
    if (f.step < f.width * bytesPerPixel) {
      throw new DepthImageError(
        `depth step ${f.step} < width ${f.width} x ${bytesPerPixel} bytes (${f.encoding})`,
      );
    }
    const need = f.step * (f.height - 1) + f.width * bytesPerPixel;
    if (f.data.length < need) {
      throw new DepthImageError(
        `depth data has ${f.data.length} bytes, ${f.encoding} ${f.width}x${f.height} step ${f.step} needs ${need}`,
      );
    }
    this.width = f.width;
    this.height = f.height;
    this.step = f.step;
    this.little = !f.isBigEndian;
    this.is16 = f.encoding === '16UC1';
    this.view = new DataView(f.data.buffer, f.data.byteOffset, f.data.byteLength);
  }

  /** Depth in metres at integer pixel (x, y), or NaN where the sensor has none (0, NaN, inf). */
  metresAt(x: number, y: number): number {
    const row = y * this.step;
    if (this.is16) {
      const mm = this.view.getUint16(row + x * 2, this.little);
      return mm === 0 ? NaN : mm / 1000;
    }
    const m = this.view.getFloat32(row + x * 4, this.little);
    return m > 0 && Number.isFinite(m) ? m : NaN;
  }
}
