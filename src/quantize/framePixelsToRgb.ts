import type { Frame } from '../core/frame';
import type { RgbImage } from '../core/rgbImage';
import { toRgbImage } from '../annotate/toRgbImage';

export { bt601LimitedToRgb } from '../annotate/bt601LimitedToRgb';

/**
 * A frame of any encoding the intake accepts as packed rgb8, for saving calibration images: a
 * packed rgb8 frame as it is (no copy), others through toRgbImage, YUV converted as the engine's
 * preprocessing does (BT.601 limited range), so the calibration photo holds the pixels the model
 * will be fed from that camera.
 */
export function framePixelsToRgb(frame: Frame): RgbImage {
  return toRgbImage(frame);
}
