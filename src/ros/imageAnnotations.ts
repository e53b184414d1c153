import type * as Rclnodejs from 'rclnodejs';
import { labelTop, overlayScale } from '../core/overlayScale';
import { paletteColor } from '../core/palette';
import type { Detection2DArrayMsg, PersonPoseArrayMsg } from './visionMessages';

export type ImageAnnotationsMsg = Rclnodejs.foxglove_msgs.msg.ImageAnnotations;
type PointsAnnotationMsg = Rclnodejs.foxglove_msgs.msg.PointsAnnotation;
type TextAnnotationMsg = Rclnodejs.foxglove_msgs.msg.TextAnnotation;
type ColorMsg = Rclnodejs.foxglove_msgs.msg.Color;
type Point2Msg = Rclnodejs.foxglove_msgs.msg.Point2;
type KeyValuePairMsg = Rclnodejs.foxglove_msgs.msg.KeyValuePair;
type TimeMsg = Rclnodejs.builtin_interfaces.msg.Time;
type Detection2DMsg = Rclnodejs.vision_msgs.msg.Detection2D;

/** foxglove_msgs/PointsAnnotation's `type` constants (a pure module cannot load the bindings). */
export const POINTS_TYPE = { POINTS: 1, LINE_LOOP: 2, LINE_STRIP: 3, LINE_LIST: 4 } as const;

/** Keypoints below this score are left out, as in the drawn picture (COCO convention). */
export const KEYPOINT_MIN_SCORE = 0.5;

/**
 * A result message a node has just published. The annotations are built from it rather than from
 * the model's result, so they show exactly what subscribers got (Detection2D.id included, the
 * track id once tracking sets it).
 */
export type PublishedResult =
  | { readonly kind: 'detections' | 'instances'; readonly msg: Detection2DArrayMsg }
  | { readonly kind: 'poses'; readonly msg: PersonPoseArrayMsg };

export interface AnnotationContext {
  /** The model's class names, indexed by class_id. */
  readonly classNames: readonly string[];
  /** Keypoint index pairs joined by a line (0-based), in the model's keypoint order. */
  readonly skeleton: readonly (readonly [number, number])[];
  /** Size of the image annotated, pixels: line widths and font size scale with it. */
  readonly width: number;
  readonly height: number;
}

const WHITE: ColorMsg = { r: 1, g: 1, b: 1, a: 1 };
const NONE: ColorMsg = { r: 0, g: 0, b: 0, a: 0 };

/** The annotated picture's palette colour, as Foxglove's 0..1 RGBA. */
export function paletteRgba(index: number): ColorMsg {
  const [r, g, b] = paletteColor(index);
  return { r: r / 255, g: g / 255, b: b / 255, a: 1 };
}

function pair(key: string, value: string): KeyValuePairMsg {
  return { key, value };
}

function points(
  stamp: TimeMsg,
  type: number,
  at: Point2Msg[],
  colors: { outline: ColorMsg; each?: ColorMsg[] },
  thickness: number,
  metadata: KeyValuePairMsg[] = [],
): PointsAnnotationMsg {
  return {
    timestamp: stamp,
    type,
    points: at,
    outline_color: colors.outline,
    outline_colors: colors.each ?? [],
    fill_color: NONE,
    thickness,
    metadata,
  };
}

/**
 * One detection: its box as a closed polygon and its label ("class score #id") on a tag of the
 * box's colour, placed and coloured as in the drawn picture: by class id, or for instances by
 * their id (the colour of their mask there, following the object when tracking sets the id).
 */
function detectionShapes(
  d: Detection2DMsg,
  stamp: TimeMsg,
  ctx: AnnotationContext,
  scale: { stroke: number; font: number },
  byId: boolean,
): { box: PointsAnnotationMsg; label: TextAnnotationMsg } {
  const { x, y } = d.bbox.center.position;
  const x1 = x - d.bbox.size_x / 2;
  const y1 = y - d.bbox.size_y / 2;
  const x2 = x + d.bbox.size_x / 2;
  const y2 = y + d.bbox.size_y / 2;
  const hypothesis = d.results[0]?.hypothesis;
  const classIndex = hypothesis ? Number(hypothesis.class_id) : NaN;
  const className = hypothesis ? (ctx.classNames[classIndex] ?? hypothesis.class_id) : 'unknown';
  const ownColor = byId && /^\d+$/.test(d.id);
  const color = paletteRgba(
    ownColor ? Number(d.id) : Number.isInteger(classIndex) ? classIndex : 0,
  );

  const words = [className];
  if (hypothesis) words.push(hypothesis.score.toFixed(2));
  if (d.id) words.push(`#${d.id}`);
  const metadata = [pair('id', d.id), pair('class_name', className)];
  if (hypothesis) {
    metadata.push(pair('class_id', hypothesis.class_id), pair('score', String(hypothesis.score)));
  }
  const box = points(
    stamp,
    POINTS_TYPE.LINE_LOOP,
    [
      { x: x1, y: y1 },
      { x: x2, y: y1 },
      { x: x2, y: y2 },
      { x: x1, y: y2 },
    ],
    { outline: color },
    scale.stroke,
    metadata,
  );
  const label: TextAnnotationMsg = {
    timestamp: stamp,
    // TextAnnotation places the text by its bottom-left corner.
    position: { x: x1 + 3, y: labelTop(y1, scale.font) + scale.font },
    text: words.join(' '),
    font_size: scale.font,
    text_color: WHITE,
    background_color: color,
    metadata: [pair('id', d.id)],
  };
  return { box, label };
}

/**
 * One person's visible keypoints (a point each, coloured by keypoint index) and the limbs between
 * two visible keypoints (one segment each, coloured by its first keypoint), as in the picture.
 */
function skeletonShapes(
  keypoints: readonly { x: number; y: number; score: number }[],
  id: string,
  stamp: TimeMsg,
  ctx: AnnotationContext,
  stroke: number,
): PointsAnnotationMsg[] {
  const seen = (i: number): boolean => (keypoints[i]?.score ?? 0) >= KEYPOINT_MIN_SCORE;
  const dots: Point2Msg[] = [];
  const dotColors: ColorMsg[] = [];
  keypoints.forEach((k, i) => {
    if (!seen(i)) return;
    dots.push({ x: k.x, y: k.y });
    dotColors.push(paletteRgba(i));
  });
  const ends: Point2Msg[] = [];
  const limbColors: ColorMsg[] = [];
  for (const [i, j] of ctx.skeleton) {
    if (!seen(i) || !seen(j)) continue;
    ends.push(
      { x: keypoints[i]!.x, y: keypoints[i]!.y },
      { x: keypoints[j]!.x, y: keypoints[j]!.y },
    );
    limbColors.push(paletteRgba(i + 3));
  }
  const meta = [pair('id', id)];
  const out: PointsAnnotationMsg[] = [];
  if (ends.length > 0) {
    out.push(
      points(
        stamp,
        POINTS_TYPE.LINE_LIST,
        ends,
        { outline: WHITE, each: limbColors },
        stroke,
        meta,
      ),
    );
  }
  if (dots.length > 0) {
    // A point's thickness is its diameter: the picture's dot radius is stroke + 1.
    out.push(
      points(
        stamp,
        POINTS_TYPE.POINTS,
        dots,
        { outline: WHITE, each: dotColors },
        2 * (stroke + 1),
        meta,
      ),
    );
  }
  return out;
}

/**
 * foxglove_msgs/ImageAnnotations for a published result: boxes, labels and skeletons in the
 * source image's pixels (the result's own coordinates: origin at the top-left corner of the
 * top-left pixel, which is Foxglove's convention too). The message has no header: the image stamp
 * goes in `timestamp` (and each annotation's, for viewers that read those), the frame_id in the
 * metadata entry "frame_id". Pure: no pixels are touched.
 */
export function imageAnnotations(
  result: PublishedResult,
  ctx: AnnotationContext,
): ImageAnnotationsMsg {
  const header = result.msg.header;
  const stamp: TimeMsg = { sec: header.stamp.sec, nanosec: header.stamp.nanosec };
  const scale = overlayScale(ctx.width, ctx.height);
  const shapes: PointsAnnotationMsg[] = [];
  const texts: TextAnnotationMsg[] = [];
  const add = (d: Detection2DMsg): void => {
    const { box, label } = detectionShapes(d, stamp, ctx, scale, result.kind === 'instances');
    shapes.push(box);
    texts.push(label);
  };
  if (result.kind !== 'poses') {
    for (const d of result.msg.detections) add(d);
  } else {
    // Skeletons first, so that boxes and labels are drawn over them, as in the picture.
    for (const p of result.msg.poses) {
      shapes.push(...skeletonShapes(p.keypoints, p.detection.id, stamp, ctx, scale.stroke));
    }
    for (const p of result.msg.poses) add(p.detection);
  }
  return {
    timestamp: stamp,
    circles: [],
    points: shapes,
    texts,
    metadata: [pair('frame_id', header.frame_id)],
  };
}
