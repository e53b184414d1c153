import { z } from 'zod';
import { packagePath } from '../packageRoot';
import { MAX_IMAGE_DIMENSION } from '../core/imageEncoding';
import { describeZodError } from '../core/configError';

export const IMAGE_SOURCE_DEFAULTS = {
  /** Folder of .jpg/.jpeg/.png files, published in name order. */
  directory: process.env.HTP_PHOTOS ?? packagePath('.cache', 'photos'),
  rate_hz: 10.0,
  frame_id: 'camera_optical_frame',
  encoding: 'rgb8',
  /** Longest side in pixels after resizing (0 keeps the photo's size). */
  max_side: 0,
  loop: true,
  /** Also publish each frame as JPEG on image/compressed. */
  publish_compressed: false,
};

const schema = z.object({
  directory: z.string().min(1),
  rate_hz: z.number().positive().max(1000),
  frame_id: z.string(),
  encoding: z.enum(['rgb8', 'bgr8', 'mono8']),
  max_side: z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
  loop: z.boolean(),
  publish_compressed: z.boolean(),
});

export type ImageSourceConfig = z.infer<typeof schema>;

export function parseImageSourceConfig(values: unknown): ImageSourceConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError('image_source parameters', r.error);
  return r.data;
}
