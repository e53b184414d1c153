import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import type { Frame } from '../core/frame';
import type { Sharp } from 'sharp';
import { loadSharp } from '../util/loadSharp';
import { rgbToYuyv } from './rgbToYuyv';

export interface DecodedPhoto {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly encoding: 'rgb8' | 'bgr8' | 'mono8' | 'yuyv';
  readonly step: number;
  readonly data: Buffer;
  readonly jpeg: Buffer;
}

const PHOTO = /\.(jpe?g|png)$/i;

export function listPhotos(directory: string): string[] {
  if (!fs.existsSync(directory) || !fs.statSync(directory).isDirectory()) {
    throw new ConfigError(
      `photo directory ${directory} does not exist (scripts/bootstrap.sh fills .cache/photos)`,
    );
  }
  const files = fs
    .readdirSync(directory)
    .filter((f) => PHOTO.test(f))
    .sort();
  if (files.length === 0)
    throw new ConfigError(`photo directory ${directory} holds no .jpg/.jpeg/.png files`);
  return files.map((f) => path.join(directory, f));
}

/**
 * How photos become frames: `maxSide` shrinks each photo to a longest side (its aspect and size
 * kept otherwise); `width` x `height` (both > 0) is one camera's size, every photo scaled to fit
 * and letterboxed into it with black bars. 0 leaves that sizing off.
 */
export interface PhotoSizing {
  readonly maxSide: number;
  readonly width: number;
  readonly height: number;
}

/** Decodes a photo file into the raw pixels of a sensor_msgs/Image (and a JPEG for CompressedImage). */
export async function decodePhoto(
  file: string,
  encoding: DecodedPhoto['encoding'],
  sizing: PhotoSizing,
): Promise<DecodedPhoto> {
  const img = sizedPhoto(file, sizing);
  const channels = encoding === 'mono8' ? 1 : 3;
  const pipeline = encoding === 'mono8' ? img.grayscale() : img.removeAlpha().toColourspace('srgb');
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== channels)
    throw new Error(`${file}: decoded ${info.channels} channels, expected ${channels}`);
  if (encoding === 'yuyv') {
    // A pixel pair shares its chroma: an odd width drops the last column.
    const width = info.width & ~1;
    const yuyv = rgbToYuyv({ data, width: info.width, height: info.height }, width);
    return {
      name: path.basename(file),
      width,
      height: info.height,
      encoding,
      step: width * 2,
      data: yuyv,
      jpeg: await jpegOf(file, width, info.height, sizing),
    };
  }
  if (encoding === 'bgr8') {
    for (let i = 0; i < data.length; i += 3) {
      const r = data[i]!;
      data[i] = data[i + 2]!;
      data[i + 2] = r;
    }
  }
  return {
    name: path.basename(file),
    width: info.width,
    height: info.height,
    encoding,
    step: info.width * channels,
    data,
    jpeg: await jpegOf(file, info.width, info.height, sizing),
  };
}

function sizedPhoto(file: string, sizing: PhotoSizing): Sharp {
  const img = loadSharp()(file).rotate();
  if (sizing.width > 0 && sizing.height > 0)
    return img.resize({
      width: sizing.width,
      height: sizing.height,
      fit: 'contain',
      background: { r: 0, g: 0, b: 0 },
    });
  if (sizing.maxSide > 0)
    return img.resize({
      width: sizing.maxSide,
      height: sizing.maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  return img;
}

function jpegOf(file: string, width: number, height: number, sizing: PhotoSizing): Promise<Buffer> {
  // sharp keeps one resize per pipeline: a letterboxed frame is cut to the raw frame's width (yuyv
  // drops an odd last column) instead of resized again.
  const img =
    sizing.width > 0 && sizing.height > 0
      ? sizedPhoto(file, sizing).extract({ left: 0, top: 0, width, height })
      : loadSharp()(file).rotate().resize(width, height);
  return img.jpeg({ quality: 90 }).toBuffer();
}

/** A photo file as a packed rgb8 frame (EXIF orientation applied, as OpenCV's imread does). */
export async function loadRgbFrame(file: string): Promise<Frame> {
  const { data, info } = await loadSharp()(file)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, step: info.width * 3, encoding: 'rgb8' };
}
