import sharp from 'sharp';
import { Annotation } from './annotationTypes';
import { annotationSvg } from './annotationSvg';
import { labelTint } from './labelTint';

export interface RgbImage {
  readonly width: number;
  readonly height: number;
  /** Tightly packed rgb8 pixels. */
  readonly data: Uint8Array;
}

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
  const base = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  }).composite(layers);
  if (format === 'jpeg') return base.jpeg({ quality }).toBuffer();
  if (format === 'png') return base.png().toBuffer();
  // The SVG layer brings an alpha channel into the composite; a raw image is plain rgb8.
  return base.removeAlpha().raw().toBuffer();
}
