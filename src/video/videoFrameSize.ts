/**
 * The size of the video's pictures for a camera image: `videoWidth` (0: the annotated pictures'
 * bound `annotatedMaxWidth`, 0: the camera's width), never wider than the camera, aspect kept,
 * both sides even (H.264's 4:2:0 chroma) and at least 16.
 */
export function videoFrameSize(
  sourceWidth: number,
  sourceHeight: number,
  videoWidth: number,
  annotatedMaxWidth: number,
): { width: number; height: number } {
  const bound = videoWidth > 0 ? videoWidth : annotatedMaxWidth;
  const wanted = bound > 0 ? Math.min(bound, sourceWidth) : sourceWidth;
  const width = Math.max(16, wanted - (wanted % 2));
  const exactHeight = (sourceHeight * width) / sourceWidth;
  const height = Math.max(16, 2 * Math.round(exactHeight / 2));
  return { width, height };
}
