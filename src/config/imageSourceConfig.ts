import { z } from 'zod';
import { packagePath } from '../packageRoot';
import { MAX_IMAGE_DIMENSION } from '../core/imageEncoding';
import { ConfigError, describeZodError } from '../core/configError';
import { parameterSpec as spec } from '../core/parameterSpec';
import type { ParameterSpec } from '../core/parameterSpec';
import { tableDefaults, tableSchema } from './parameterTable';

/** Parameters of image_source; read-only: the photos are loaded once at start. */
export const IMAGE_SOURCE_PARAMETERS = {
  directory: spec(
    z.string().min(1),
    process.env.HTP_PHOTOS ?? packagePath('.cache', 'photos'),
    'fixed',
    'folder of .jpg / .jpeg / .png files, published in name order',
  ),
  rate_hz: spec(z.number().positive().max(1000), 10.0, 'fixed', 'frames per second'),
  frame_id: spec(z.string(), 'camera_optical_frame', 'fixed', "the frames' header.frame_id"),
  encoding: spec(
    z.enum(['rgb8', 'bgr8', 'mono8', 'yuyv']),
    'rgb8',
    'fixed',
    'pixel encoding of image (yuyv: BT.601 limited range, as USB cameras send; an odd width loses its last column)',
  ),
  max_side: spec(
    z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
    0,
    'fixed',
    "longest side in pixels after resizing (0 keeps the photo's size)",
  ),
  width: spec(
    z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
    0,
    'fixed',
    'frame width in pixels, with height: every photo scaled to fit and letterboxed (black bars) into width x height, as one camera sends one size (0: each photo at its own size)',
  ),
  height: spec(
    z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
    0,
    'fixed',
    'frame height in pixels, with width (0: each photo at its own size)',
  ),
  wait_for_subscribers: spec(
    z.number().int().min(0).max(100),
    0,
    'fixed',
    'publish the first frame only once this many subscriptions matched image (0: at once); a restarted camera in a test then sends nothing before the node under test can receive it',
  ),
  loop: spec(z.boolean(), true, 'fixed', 'start over after the last photo (false: exit after it)'),
  publish_compressed: spec(
    z.boolean(),
    false,
    'fixed',
    'also publish each frame as JPEG on image/compressed',
  ),
} as const satisfies Record<string, ParameterSpec>;

export const IMAGE_SOURCE_DEFAULTS = tableDefaults(IMAGE_SOURCE_PARAMETERS);

const schema = tableSchema(IMAGE_SOURCE_PARAMETERS);

export type ImageSourceConfig = z.infer<typeof schema>;

export function parseImageSourceConfig(values: unknown): ImageSourceConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError('image_source parameters', r.error);
  const c = r.data;
  if ((c.width === 0) !== (c.height === 0))
    throw new ConfigError(
      `image_source parameters: width and height are set together (got width ${c.width}, height ${c.height}; 0 and 0 keep each photo's size)`,
    );
  if (c.width > 0 && c.max_side > 0)
    throw new ConfigError(
      'image_source parameters: max_side and width/height both size the frames: set one of them',
    );
  return c;
}
