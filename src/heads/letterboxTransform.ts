import type { ImageTransform } from '../core/tensor';

/**
 * The ImageTransform of a centred letterbox (Ultralytics style: one scale, equal padding on both
 * sides, upscaling allowed) or a stretch of a source region onto a network input. Heads do not
 * need it (the engine reports the transform it applied); tests and tools use it to build one.
 */
export function letterboxTransform(
  srcWidth: number,
  srcHeight: number,
  dstWidth: number,
  dstHeight: number,
  mode: 'letterbox' | 'stretch' = 'letterbox',
  crop: { x: number; y: number; width: number; height: number } = {
    x: 0,
    y: 0,
    width: srcWidth,
    height: srcHeight,
  },
): ImageTransform {
  if (mode === 'stretch') {
    return {
      srcWidth,
      srcHeight,
      crop,
      dstWidth,
      dstHeight,
      scaleX: dstWidth / crop.width,
      scaleY: dstHeight / crop.height,
      padX: 0,
      padY: 0,
    };
  }
  const scale = Math.min(dstWidth / crop.width, dstHeight / crop.height);
  return {
    srcWidth,
    srcHeight,
    crop,
    dstWidth,
    dstHeight,
    scaleX: scale,
    scaleY: scale,
    padX: (dstWidth - crop.width * scale) / 2,
    padY: (dstHeight - crop.height * scale) / 2,
  };
}
