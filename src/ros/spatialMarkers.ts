/**
 * visualization_msgs/MarkerArray for the 3D results, for rviz's and Foxglove's 3D views: per
 * detection a translucent box in its track (or class) colour and a text label above it, per pose
 * its limbs as a line list between keypoints that both have depth. Every marker lives a little
 * longer than a frame period, so nothing lingers after an object leaves; each frame starts with a
 * DELETEALL of our namespace, so a marker of an id that went away never stays.
 */
import type * as Rclnodejs from 'rclnodejs';
import { paletteColor } from '../core/palette';
import type { Detection3DArrayMsg, PersonPose3DArrayMsg } from './spatialMessages';

type MarkerMsg = Rclnodejs.visualization_msgs.msg.Marker;
type MarkerArrayMsg = Rclnodejs.visualization_msgs.msg.MarkerArray;

export interface MarkerStyle {
  readonly classNames: readonly string[];
  /** Keypoint index pairs joined by a line (0-based). */
  readonly skeleton: readonly (readonly [number, number])[];
  /** How long a marker stays without being refreshed, seconds. */
  readonly lifetimeS: number;
  /** Marker namespace: the node's name, so two pipelines' markers never replace each other. */
  readonly ns: string;
}

const CUBE = 1;
const LINE_LIST = 5;
const TEXT_VIEW_FACING = 9;
const ADD = 0;
const DELETEALL = 3;
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };

function rgba(index: number, a: number) {
  const [r, g, b] = paletteColor(index);
  return { r: r / 255, g: g / 255, b: b / 255, a };
}

/** Colour key of a detection: its id when tracking (stable per object), else its class. */
function colourKey(id: string, classId: string, tracking: boolean): number {
  return Number(tracking ? id : classId) || 0;
}

export function spatialMarkers(
  detections: Detection3DArrayMsg | undefined,
  poses: PersonPose3DArrayMsg | undefined,
  style: MarkerStyle,
  tracking: boolean,
): MarkerArrayMsg {
  const header = (detections ?? poses)!.header;
  const sec = Math.floor(style.lifetimeS);
  const lifetime = { sec, nanosec: Math.round((style.lifetimeS - sec) * 1e9) };
  const base = (id: number, type: number): MarkerMsg =>
    ({
      header,
      ns: style.ns,
      id,
      type,
      action: ADD,
      pose: { position: { x: 0, y: 0, z: 0 }, orientation: IDENTITY },
      scale: { x: 1, y: 1, z: 1 },
      color: { r: 1, g: 1, b: 1, a: 1 },
      lifetime,
      frame_locked: false,
      points: [],
      colors: [],
      text: '',
    }) as unknown as MarkerMsg;
  const markers: MarkerMsg[] = [{ ...base(0, CUBE), action: DELETEALL }];
  let next = 1;
  for (const d of detections?.detections ?? []) {
    const h = d.results[0]?.hypothesis;
    const classId = h?.class_id ?? '0';
    const key = colourKey(d.id, classId, tracking);
    const c = d.bbox.center.position;
    const s = d.bbox.size;
    markers.push({
      ...base(next++, CUBE),
      pose: { position: c, orientation: IDENTITY },
      // A flat surface still gets a visible slab.
      scale: { x: s.x, y: s.y, z: Math.max(s.z, 0.02) },
      color: rgba(key, 0.35),
    });
    const name = style.classNames[Number(classId)] ?? classId;
    markers.push({
      ...base(next++, TEXT_VIEW_FACING),
      // Optical frame: y points down, so "above the box" is towards -y.
      pose: { position: { x: c.x, y: c.y - s.y / 2 - 0.08, z: c.z }, orientation: IDENTITY },
      scale: { x: 0.12, y: 0.12, z: 0.12 },
      color: rgba(key, 1),
      text: `${name} ${(h?.score ?? 0).toFixed(2)} #${d.id} ${c.z.toFixed(2)} m`,
    });
  }
  for (const p of poses?.poses ?? []) {
    const points: { x: number; y: number; z: number }[] = [];
    for (const [i, j] of style.skeleton) {
      const a = p.keypoints[i];
      const b = p.keypoints[j];
      if (a?.valid && b?.valid) points.push(a.position, b.position);
    }
    if (points.length === 0) continue;
    markers.push({
      ...base(next++, LINE_LIST),
      scale: { x: 0.02, y: 0, z: 0 },
      color: rgba(colourKey(p.detection.id, '0', tracking), 1),
      points,
    });
  }
  return { markers };
}
