import {
  compose,
  IDENTITY,
  interpolate,
  invert,
  normalizedQuaternion,
  type RigidTransform,
} from './rigidTransform';

/** One edge of the tree as a TransformStamped states it: `child` expressed in `parent`. */
export interface StampedTransform {
  /** header.frame_id */
  readonly parent: string;
  /** child_frame_id */
  readonly child: string;
  /** header.stamp in nanoseconds (0 for a static transform is as good as any other time). */
  readonly stampNs: bigint;
  readonly transform: RigidTransform;
}

export type LookupFailure = 'unknown_frame' | 'not_connected' | 'extrapolation' | 'loop';

export type Lookup =
  | {
      readonly ok: true;
      /** Maps points given in the source frame into the target frame. */
      readonly transform: RigidTransform;
      /** The time the transform is for (the latest common time when asked for time 0). */
      readonly stampNs: bigint;
    }
  | { readonly ok: false; readonly reason: LookupFailure; readonly message: string };

interface Sample {
  readonly stampNs: bigint;
  readonly parent: string;
  readonly transform: RigidTransform;
}

/** Where a walk up the tree got: each frame reached with the transform into it. */
interface Walk {
  readonly reached: Map<string, RigidTransform>;
  readonly end: string;
  readonly met: boolean;
  readonly failure?: Lookup & { ok: false };
}

interface FrameHistory {
  /** Set by /tf_static: valid at every time. */
  fixed: Sample | undefined;
  /** From /tf, oldest first, no older than the newest minus the cache time. */
  readonly samples: Sample[];
}

type Edge =
  | { readonly ok: true; readonly parent: string; readonly transform: RigidTransform }
  | { readonly ok: false; readonly reason: LookupFailure; readonly message: string };

const NS_PER_S = 1_000_000_000n;
/** tf2's default cache: ten seconds of each dynamic transform. */
export const DEFAULT_CACHE_NS = 10n * NS_PER_S;
/** A walk longer than this is a loop in the published tree (tf2 stops at the same depth). */
const MAX_DEPTH = 1000;

/** tf2 names frames without a leading slash ('/base_link' and 'base_link' are one frame). */
export function frameName(id: string): string {
  return id.startsWith('/') ? id.slice(1) : id;
}

export function stampToNs(stamp: { readonly sec: number; readonly nanosec: number }): bigint {
  return BigInt(stamp.sec) * NS_PER_S + BigInt(stamp.nanosec);
}

/** The earliest of the known times, 0 when none is known (a chain static throughout). */
function oldestOr0(times: readonly (bigint | undefined)[]): bigint {
  let oldest: bigint | undefined;
  for (const t of times) if (t !== undefined && (oldest === undefined || t < oldest)) oldest = t;
  return oldest ?? 0n;
}

/** A walk that found a loop in the published tree where it stands. */
function loopAt(reached: Map<string, RigidTransform>, end: string, message: string): Walk {
  return { reached, end, met: false, failure: { ok: false, reason: 'loop', message } };
}

function seconds(ns: bigint): string {
  const neg = ns < 0n;
  const a = neg ? -ns : ns;
  return `${neg ? '-' : ''}${a / NS_PER_S}.${String(a % NS_PER_S).padStart(9, '0')}`;
}

/**
 * The transform tree of /tf and /tf_static with tf2's semantics, for one process: each frame has
 * one parent per time; a dynamic edge is interpolated between the two samples around the asked
 * time (translation linearly, rotation by slerp) and never extrapolated; a static edge holds at
 * every time; time 0 asks for the latest time every dynamic edge of the chain has data for.
 * Lookups fail with a reason (unknown frame, frames in different trees, extrapolation, a loop):
 * the caller counts and reports them, nothing is guessed.
 */
export class TransformBuffer {
  private readonly frames = new Map<string, FrameHistory>();
  /** Every frame named as a parent (roots are known only this way). */
  private readonly parents = new Set<string>();

  constructor(private readonly cacheNs: bigint = DEFAULT_CACHE_NS) {}

  /** Adds an edge; returns why it was refused, or '' when it was taken. */
  setTransform(t: StampedTransform, isStatic: boolean): string {
    const parent = frameName(t.parent);
    const child = frameName(t.child);
    if (!parent || !child)
      return `a transform with an empty frame id ('${t.parent}' -> '${t.child}')`;
    if (parent === child) return `a transform from '${child}' to itself`;
    const tr = t.transform.translation;
    if (![tr.x, tr.y, tr.z].every(Number.isFinite)) {
      return `'${parent}' -> '${child}': translation has a non-finite value`;
    }
    const rotation = normalizedQuaternion(t.transform.rotation);
    if (typeof rotation === 'string') return `'${parent}' -> '${child}': ${rotation}`;
    const sample: Sample = {
      stampNs: t.stampNs,
      parent,
      transform: { translation: tr, rotation },
    };
    let h = this.frames.get(child);
    if (!h) this.frames.set(child, (h = { fixed: undefined, samples: [] }));
    this.parents.add(parent);
    if (isStatic) {
      h.fixed = sample;
      h.samples.length = 0;
      return '';
    }
    if (h.fixed) return `'${child}' is static (from /tf_static): its /tf transform is ignored`;
    const s = h.samples;
    const newest = s.length > 0 ? s[s.length - 1]!.stampNs : undefined;
    if (newest !== undefined && t.stampNs < newest - this.cacheNs) {
      return `'${parent}' -> '${child}' at ${seconds(t.stampNs)} is older than the cache (${seconds(newest)} newest)`;
    }
    // Usually appended; a late message is put in its place, one at an equal stamp replaced.
    let i = s.length;
    while (i > 0 && s[i - 1]!.stampNs > t.stampNs) i--;
    if (i > 0 && s[i - 1]!.stampNs === t.stampNs) s[i - 1] = sample;
    else s.splice(i, 0, sample);
    const cutoff = s[s.length - 1]!.stampNs - this.cacheNs;
    let drop = 0;
    while (drop < s.length - 1 && s[drop]!.stampNs < cutoff) drop++;
    if (drop > 0) s.splice(0, drop);
    return '';
  }

  /** Whether `frame` was ever named, as a child or a parent. */
  knows(frame: string): boolean {
    const f = frameName(frame);
    return this.frames.has(f) || this.parents.has(f);
  }

  /**
   * The transform that maps points in `source` into `target` at `timeNs` (0n: the latest common
   * time of the chain), as tf2's lookupTransform(target, source, time).
   */
  lookup(target: string, source: string, timeNs: bigint): Lookup {
    const to = frameName(target);
    const from = frameName(source);
    if (!to || !from) {
      const which = !from ? 'source' : 'target';
      return { ok: false, reason: 'unknown_frame', message: `the ${which} frame id is empty` };
    }
    if (to === from) return { ok: true, transform: IDENTITY, stampNs: timeNs };
    for (const f of [to, from]) {
      if (!this.knows(f)) {
        return { ok: false, reason: 'unknown_frame', message: `frame '${f}' does not exist` };
      }
    }
    let time = timeNs;
    if (time === 0n) {
      time = this.latestCommonTime(to, from);
    }
    // As tf2: up from the source until the target; then up from the target until a frame the
    // first walk reached. An edge that fails above the meeting point does not matter.
    const up = this.walkUp(from, time, (f) => f === to);
    if (up.met) {
      return { ok: true, transform: up.reached.get(to)!, stampNs: time };
    }
    const down = this.walkUp(to, time, (f) => up.reached.has(f));
    if (down.met) {
      // source -> meeting frame, then meeting frame -> target.
      const sourceInMeet = up.reached.get(down.end)!;
      const targetInMeet = down.reached.get(down.end)!;
      return { ok: true, transform: compose(invert(targetInMeet), sourceInMeet), stampNs: time };
    }
    const failure = down.failure ?? up.failure;
    if (failure) return failure;
    return {
      ok: false,
      reason: 'not_connected',
      message: `'${to}' and '${from}' are not in one tree (their roots: '${down.end}' and '${up.end}')`,
    };
  }

  /**
   * From `frame` up towards its root at `time`, each frame reached with the transform from
   * `frame` into it; stops at the first frame `stop` accepts (met), at the root, or at an edge
   * that fails (its failure kept).
   */
  private walkUp(frame: string, time: bigint, stop: (f: string) => boolean): Walk {
    const reached = new Map<string, RigidTransform>([[frame, IDENTITY]]);
    let current = frame;
    let acc = IDENTITY;
    for (let depth = 0; ; depth++) {
      if (stop(current)) return { reached, end: current, met: true };
      if (!this.frames.has(current)) return { reached, end: current, met: false };
      if (depth >= MAX_DEPTH) {
        return loopAt(
          reached,
          current,
          `the frames above '${frame}' form a loop (more than ${MAX_DEPTH} parents)`,
        );
      }
      const e = this.edgeAt(current, time);
      if (!e.ok) return { reached, end: current, met: false, failure: e };
      if (reached.has(e.parent))
        return loopAt(reached, current, `the frames above '${frame}' form a loop at '${e.parent}'`);
      acc = compose(e.transform, acc);
      reached.set(e.parent, acc);
      current = e.parent;
    }
  }

  /** `child` in its parent at `time`. */
  private edgeAt(child: string, time: bigint): Edge {
    const h = this.frames.get(child)!;
    if (h.fixed) return { ok: true, parent: h.fixed.parent, transform: h.fixed.transform };
    const s = h.samples;
    const oldest = s[0]!;
    const newest = s[s.length - 1]!;
    if (time > newest.stampNs || time < oldest.stampNs) {
      const future = time > newest.stampNs;
      const gap = future ? time - newest.stampNs : oldest.stampNs - time;
      return {
        ok: false,
        reason: 'extrapolation',
        message: `'${newest.parent}' -> '${child}' at ${seconds(time)} would extrapolate into the ${future ? 'future' : 'past'} by ${Number(gap) / 1e6} ms (data from ${seconds(oldest.stampNs)} to ${seconds(newest.stampNs)})`,
      };
    }
    // The last sample at or before `time` (binary search: caches hold hundreds at 100 Hz).
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]!.stampNs <= time) lo = mid;
      else hi = mid - 1;
    }
    const a = s[lo]!;
    const b = s[lo + 1];
    // Between two parents tf2 keeps the earlier sample's: an interpolation across a re-parenting
    // would mix two frames.
    if (a.stampNs === time || !b || b.parent !== a.parent) {
      return { ok: true, parent: a.parent, transform: a.transform };
    }
    const f = Number(time - a.stampNs) / Number(b.stampNs - a.stampNs);
    return { ok: true, parent: a.parent, transform: interpolate(a.transform, b.transform, f) };
  }

  /**
   * The latest time every dynamic edge between the two frames has data for (tf2's time 0): the
   * oldest of their newest samples, or 0 when the chain is static throughout.
   */
  private latestCommonTime(to: string, from: string): bigint {
    const newestOnPath = (frame: string): Map<string, bigint | undefined> => {
      // Each ancestor with the oldest newest-sample of the dynamic edges below it.
      const out = new Map<string, bigint | undefined>([[frame, undefined]]);
      let current = frame;
      let common: bigint | undefined;
      for (let depth = 0; depth < MAX_DEPTH; depth++) {
        const h = this.frames.get(current);
        if (!h) break;
        const edge = h.fixed ?? h.samples[h.samples.length - 1]!;
        if (!h.fixed && (common === undefined || edge.stampNs < common)) common = edge.stampNs;
        if (out.has(edge.parent)) break;
        out.set(edge.parent, common);
        current = edge.parent;
      }
      return out;
    };
    const a = newestOnPath(from);
    const b = newestOnPath(to);
    for (const [frame, below] of b) {
      if (a.has(frame)) return oldestOr0([below, a.get(frame)]);
    }
    // No frame in common: the walks at any time that has data say why (two trees, a loop).
    return oldestOr0([...a.values(), ...b.values()]);
  }
}
