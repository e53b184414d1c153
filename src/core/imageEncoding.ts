/**
 * The one list of pixel encodings (sensor_msgs/image_encodings names) the intake decodes and the
 * engine preprocesses, with their byte layouts and the size limits of a frame. Pure data with no
 * imports, so ROS glue and the engine share it; the addon's parser (native/src/binding/option_reader.cc)
 * accepts exactly these canonical names, which the engine tests check.
 */
export type ImageEncoding =
  'rgb8' | 'bgr8' | 'rgba8' | 'bgra8' | 'mono8' | 'yuv422' | 'yuyv' | 'nv12';

/** Largest width or height we accept, in pixels (16K covers every camera we know of). */
export const MAX_IMAGE_DIMENSION = 16384;
/** Largest pixel payload we accept, in bytes (an 8K RGBA frame is ~133 MB). */
export const MAX_IMAGE_BYTES = 256 * 1024 * 1024;

interface EncodingLayout {
  /** Bytes per pixel in one row of the (first) plane. */
  readonly rowBytesPerPixel: number;
  /** Total bytes = rowBytes * height * planeFactor (1.5 for 4:2:0 semi-planar). */
  readonly planeFactor: number;
  /** Width must be a multiple of this (chroma subsampling). */
  readonly widthMultiple: number;
  readonly heightMultiple: number;
}

const LAYOUTS: Readonly<Record<ImageEncoding, EncodingLayout>> = {
  rgb8: { rowBytesPerPixel: 3, planeFactor: 1, widthMultiple: 1, heightMultiple: 1 },
  bgr8: { rowBytesPerPixel: 3, planeFactor: 1, widthMultiple: 1, heightMultiple: 1 },
  rgba8: { rowBytesPerPixel: 4, planeFactor: 1, widthMultiple: 1, heightMultiple: 1 },
  bgra8: { rowBytesPerPixel: 4, planeFactor: 1, widthMultiple: 1, heightMultiple: 1 },
  mono8: { rowBytesPerPixel: 1, planeFactor: 1, widthMultiple: 1, heightMultiple: 1 },
  // ROS names YUYV byte order "yuv422_yuy2"/"yuyv"; "yuv422" is UYVY. Both carry 2 bytes a pixel.
  yuv422: { rowBytesPerPixel: 2, planeFactor: 1, widthMultiple: 2, heightMultiple: 1 },
  yuyv: { rowBytesPerPixel: 2, planeFactor: 1, widthMultiple: 2, heightMultiple: 1 },
  nv12: { rowBytesPerPixel: 1, planeFactor: 1.5, widthMultiple: 2, heightMultiple: 2 },
};

/** Aliases other drivers publish for the same byte layouts. */
const ALIASES: Readonly<Record<string, ImageEncoding>> = {
  yuv422_yuy2: 'yuyv',
};

export const IMAGE_ENCODINGS: readonly ImageEncoding[] =
  Object.keys(LAYOUTS).filter(isImageEncoding);

/** True for a canonical name (aliases are not: parseImageEncoding resolves them). */
export function isImageEncoding(name: string): name is ImageEncoding {
  return Object.prototype.hasOwnProperty.call(LAYOUTS, name);
}

export function parseImageEncoding(name: string): ImageEncoding | undefined {
  const lower = name.toLowerCase();
  if (isImageEncoding(lower)) return lower;
  // Own keys only: a sender's "__proto__" or "constructor" must not find Object.prototype's.
  return Object.prototype.hasOwnProperty.call(ALIASES, lower) ? ALIASES[lower] : undefined;
}

export function encodingLayout(encoding: ImageEncoding): EncodingLayout {
  return LAYOUTS[encoding];
}

/** Smallest valid `step` (row stride) for an image of this width, in bytes. */
export function minStep(encoding: ImageEncoding, width: number): number {
  return width * LAYOUTS[encoding].rowBytesPerPixel;
}

/** Bytes the pixel data must hold for this geometry. */
export function requiredDataBytes(encoding: ImageEncoding, step: number, height: number): number {
  return Math.ceil(step * height * LAYOUTS[encoding].planeFactor);
}
