import type { Box } from '../core/headResults';

/**
 * Constant-velocity Kalman filter on a box, state (cx, cy, w, h) and their velocities per frame,
 * measuring (cx, cy, w, h). The motion model moves each coordinate with its own velocity and the
 * measurement sees each coordinate alone, so nothing ever couples two coordinates: the 8x8
 * covariance stays four independent 2x2 (position, velocity) blocks, and the filter is exactly
 * four 1-D filters. That keeps a step to a few dozen multiplications per track.
 *
 * Noise follows ByteTrack / BoT-SORT: standard deviations proportional to the box size (a 5 %
 * position error on a 40 px box and on a 400 px box are alike), width-scaled for cx and w,
 * height-scaled for cy and h.
 */
const STD_POSITION = 1 / 20;
const STD_VELOCITY = 1 / 160;
/** A box side never predicts below this (pixels), so noise and IoU stay defined. */
const MIN_SIDE = 1e-3;

/** One coordinate: value, velocity and the covariance [[pp, pv], [pv, vv]]. */
interface Axis {
  x: number;
  v: number;
  pp: number;
  pv: number;
  vv: number;
}

export class BoxKalmanFilter {
  private readonly axes: [Axis, Axis, Axis, Axis];

  constructor(box: Box) {
    const m = measure(box);
    const sw = m[2];
    const sh = m[3];
    const scale = [sw, sh, sw, sh];
    this.axes = m.map((x, i) => {
      const s = scale[i]!;
      // ByteTrack starts with twice the measurement noise on position and a wide, unknown velocity.
      const sp = 2 * STD_POSITION * s;
      const sv = 10 * STD_VELOCITY * s;
      return { x, v: 0, pp: sp * sp, pv: 0, vv: sv * sv };
    }) as [Axis, Axis, Axis, Axis];
  }

  /** Advances the state one frame: position += velocity, uncertainty grows. */
  predict(): void {
    const [, , w, h] = this.axes;
    const scale = [w.x, h.x, w.x, h.x];
    this.axes.forEach((a, i) => {
      const s = Math.max(scale[i]!, MIN_SIDE);
      const qp = (STD_POSITION * s) ** 2;
      const qv = (STD_VELOCITY * s) ** 2;
      a.x += a.v;
      // P = F P F^T + Q with F = [[1, 1], [0, 1]].
      const pp = a.pp + 2 * a.pv + a.vv + qp;
      const pv = a.pv + a.vv;
      a.pp = pp;
      a.pv = pv;
      a.vv += qv;
    });
    for (const i of [2, 3]) {
      const a = this.axes[i]!;
      if (a.x < MIN_SIDE) a.x = MIN_SIDE;
    }
  }

  /** Corrects the state with a measured box. */
  update(box: Box): void {
    const m = measure(box);
    const scale = [m[2], m[3], m[2], m[3]];
    this.axes.forEach((a, i) => {
      const r = (STD_POSITION * Math.max(scale[i]!, MIN_SIDE)) ** 2;
      const s = a.pp + r;
      const kp = a.pp / s;
      const kv = a.pv / s;
      const innovation = m[i]! - a.x;
      a.x += kp * innovation;
      a.v += kv * innovation;
      // P = (I - K H) P, written out for the 2x2 block.
      const pp = (1 - kp) * a.pp;
      const pv = (1 - kp) * a.pv;
      const vv = a.vv - kv * a.pv;
      a.pp = pp;
      a.pv = pv;
      a.vv = vv;
    });
  }

  /** The state's box (predicted or corrected). */
  get box(): Box {
    const [cx, cy, w, h] = this.axes;
    const hw = Math.max(w.x, MIN_SIDE) / 2;
    const hh = Math.max(h.x, MIN_SIDE) / 2;
    return { x1: cx.x - hw, y1: cy.x - hh, x2: cx.x + hw, y2: cy.x + hh };
  }

  /** Velocity of the box centre, pixels per frame. */
  get velocity(): { readonly x: number; readonly y: number } {
    return { x: this.axes[0].v, y: this.axes[1].v };
  }
}

function measure(b: Box): [number, number, number, number] {
  return [
    (b.x1 + b.x2) / 2,
    (b.y1 + b.y2) / 2,
    Math.max(b.x2 - b.x1, MIN_SIDE),
    Math.max(b.y2 - b.y1, MIN_SIDE),
  ];
}
