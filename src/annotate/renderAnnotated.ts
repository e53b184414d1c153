import type sharp from 'sharp';
import { loadSharp } from '../util/loadSharp';
import { Annotation } from './annotationTypes';
import { annotationSvg } from './annotationSvg';
import { labelTint } from './labelTint';
import type { RgbImage } from '../core/rgbImage';

/**
 * Draws the annotation over the image and encodes it: JPEG for streams, PNG for files, or 'rgb8'
 * for packed pixels of the image's size (a raw sensor_msgs/Image).
 */
export async function renderAnnotated(
  image: RgbImage,
  annotation: Annotation,
  format: 'jpeg' | 'png' | 'rgb8',
  quality = 80,
): Promise<Buffer> {
  return encode(compose(image, annotation), format, quality);
}

/**
 * As renderAnnotated, then scaled down (aspect kept) when the image is wider than `maxWidth`
 * (0: never): the bandwidth bound of the teleop stream. Returns the size it encoded.
 */
export async function renderAnnotatedScaled(
  image: RgbImage,
  annotation: Annotation,
  format: 'jpeg' | 'rgb8',
  quality: number,
  maxWidth: number,
): Promise<{ data: Buffer; width: number; height: number }> {
  if (maxWidth <= 0 || image.width <= maxWidth) {
    return { data: await renderAnnotated(image, annotation, format, quality), ...size(image) };
  }
  const width = maxWidth;
  const height = Math.max(1, Math.round((image.height * maxWidth) / image.width));
  // sharp resizes before it composites, so the overlay is drawn first, at the camera's size.
  const drawn = await compose(image, annotation).removeAlpha().raw().toBuffer();
  const scaled = loadSharp()(drawn, {
    raw: { width: image.width, height: image.height, channels: 3 },
  }).resize(width, height);
  return { data: await encode(scaled, format, quality), width, height };
}

/**
 * As renderAnnotated to rgb8, at exactly `width` x `height` (the video's even size, which may
 * differ from the camera's aspect by less than a pixel).
 */
export async function renderAnnotatedSized(
  image: RgbImage,
  annotation: Annotation,
  width: number,
  height: number,
): Promise<Buffer> {
  if (width === image.width && height === image.height) {
    return renderAnnotated(image, annotation, 'rgb8');
  }
  const drawn = await compose(image, annotation).removeAlpha().raw().toBuffer();
  return loadSharp()(drawn, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
}

const size = (i: RgbImage) => ({ width: i.width, height: i.height });

function encode(img: sharp.Sharp, format: 'jpeg' | 'png' | 'rgb8', quality: number) {
  if (format === 'jpeg') return img.jpeg({ quality }).toBuffer();
  if (format === 'png') return img.png().toBuffer();
  // The SVG layer brings an alpha channel into the composite; a raw image is plain rgb8.
  return img.removeAlpha().raw().toBuffer();
}

function compose(image: RgbImage, annotation: Annotation): sharp.Sharp {
  const layers: sharp.OverlayOptions[] = [];
  if (annotation.labels) {
    layers.push({
      input: labelTint(annotation.labels),
      raw: { width: annotation.labels.width, height: annotation.labels.height, channels: 4 },
      left: 0,
      top: 0,
    });
  }
  layers.push({
    input: Buffer.from(annotationSvg(image.width, image.height, annotation)),
    left: 0,
    top: 0,
  });
  return loadSharp()(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  }).composite(layers);
}
