/**
 * ITU-R BT.601 limited-range (16..235 luma, 16..240 chroma) YCbCr to 8-bit RGB: what the engine's
 * preprocessing feeds the model from a YUV camera, so pictures drawn from one show what it saw.
 */
export function bt601LimitedToRgb(y: number, u: number, v: number): [number, number, number] {
  const c = 1.164383 * (y - 16);
  const d = u - 128;
  const f = v - 128;
  const clamp = (x: number): number => Math.min(255, Math.max(0, Math.round(x)));
  return [clamp(c + 1.596027 * f), clamp(c - 0.391762 * d - 0.812968 * f), clamp(c + 2.017232 * d)];
}
