/** Line width and font size of an overlay, both in pixels of the image they are drawn on. */
export interface OverlayScale {
  readonly stroke: number;
  readonly font: number;
}

/**
 * One scale for every overlay (the drawn picture and Foxglove's annotations), so a 4K frame and a
 * thumbnail both stay readable and the two views look alike.
 */
export function overlayScale(width: number, height: number): OverlayScale {
  const side = Math.max(width, height);
  return { stroke: Math.max(2, Math.round(side / 320)), font: Math.max(11, Math.round(side / 55)) };
}

/** Where a box's label sits: above the box, or just inside it when the box touches the top. */
export function labelTop(boxTop: number, font: number): number {
  const above = boxTop - font - 4;
  return above >= 0 ? above : boxTop;
}
