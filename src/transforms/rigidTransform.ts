/**
 * Rigid transforms as tf2 states them: a translation and a unit quaternion (x, y, z, w). A
 * transform from frame `child` to frame `parent` maps a point given in `child` into `parent`:
 * p_parent = R * p_child + t.
 */
export interface Vec3 {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

export interface Quaternion {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly w: number;
}

export interface RigidTransform {
  readonly translation: Vec3;
  readonly rotation: Quaternion;
}

export const IDENTITY: RigidTransform = {
  translation: { x: 0, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
};

/** Below this |q|, a quaternion names no rotation: refused rather than normalised into one. */
const MIN_QUATERNION_NORM = 1e-6;

/**
 * The quaternion made unit length, or a reason it cannot be: tf2 refuses a transform whose
 * rotation does not normalise (a zero quaternion is a message nobody filled in).
 */
export function normalizedQuaternion(q: Quaternion): Quaternion | string {
  const values = [q.x, q.y, q.z, q.w];
  if (!values.every(Number.isFinite))
    return `rotation has a non-finite value (${values.join(', ')})`;
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  if (n < MIN_QUATERNION_NORM) return `rotation quaternion has length ${n} (unset?)`;
  return { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n };
}

export function multiplyQuaternions(a: Quaternion, b: Quaternion): Quaternion {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

/** v rotated by the unit quaternion q (q v q*, expanded: two cross products). */
export function rotateVector(q: Quaternion, v: Vec3): Vec3 {
  // t = 2 (q.xyz x v); v' = v + w t + q.xyz x t
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

/** a after b: the transform that applies b, then a (a: B -> A, b: C -> B gives C -> A). */
export function compose(a: RigidTransform, b: RigidTransform): RigidTransform {
  const t = rotateVector(a.rotation, b.translation);
  return {
    translation: {
      x: a.translation.x + t.x,
      y: a.translation.y + t.y,
      z: a.translation.z + t.z,
    },
    rotation: multiplyQuaternions(a.rotation, b.rotation),
  };
}

export function invert(a: RigidTransform): RigidTransform {
  const q = a.rotation;
  const conj = { x: -q.x, y: -q.y, z: -q.z, w: q.w };
  const t = rotateVector(conj, a.translation);
  return { translation: { x: -t.x, y: -t.y, z: -t.z }, rotation: conj };
}

export function transformPoint(a: RigidTransform, p: Vec3): Vec3 {
  const r = rotateVector(a.rotation, p);
  return { x: r.x + a.translation.x, y: r.y + a.translation.y, z: r.z + a.translation.z };
}

/**
 * Spherical linear interpolation of unit quaternions along the shorter arc (q and -q are one
 * rotation), s in [0, 1]. Only rotations within ~3e-5 rad of each other are blended linearly
 * (renormalised), where the sine formula would divide by almost zero; the blend's error there is
 * below 1e-14 rad, so interpolated transforms match an exact slerp to double precision.
 */
export function slerp(a: Quaternion, b: Quaternion, s: number): Quaternion {
  let dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  let bx = b.x;
  let by = b.y;
  let bz = b.z;
  let bw = b.w;
  if (dot < 0) {
    dot = -dot;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let wa: number;
  let wb: number;
  if (1 - dot < 1e-10) {
    wa = 1 - s;
    wb = s;
  } else {
    const theta = Math.acos(Math.min(1, dot));
    const sin = Math.sin(theta);
    wa = Math.sin((1 - s) * theta) / sin;
    wb = Math.sin(s * theta) / sin;
  }
  const q = {
    x: wa * a.x + wb * bx,
    y: wa * a.y + wb * by,
    z: wa * a.z + wb * bz,
    w: wa * a.w + wb * bw,
  };
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  return { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n };
}

/** Between a (s = 0) and b (s = 1): translation linearly, rotation by slerp, as tf2 does. */
export function interpolate(a: RigidTransform, b: RigidTransform, s: number): RigidTransform {
  return {
    translation: {
      x: a.translation.x + (b.translation.x - a.translation.x) * s,
      y: a.translation.y + (b.translation.y - a.translation.y) * s,
      z: a.translation.z + (b.translation.z - a.translation.z) * s,
    },
    rotation: slerp(a.rotation, b.rotation, s),
  };
}
