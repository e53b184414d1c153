import { HeadError } from './headError';
import { checkNmsLimits, nonMaxSuppression } from './nonMaxSuppression';

/** Thresholds shared by the YOLOv8 heads. Defaults are Ultralytics predict's. */
export interface YoloSelectOptions {
  /** Keep candidates whose best class score is strictly above this. Default 0.25. */
  readonly scoreThreshold?: number;
  /** NMS IoU threshold. Default 0.7. */
  readonly iouThreshold?: number;
  /** Cap on returned detections. Default 300. */
  readonly maxDetections?: number;
  /**
   * Only these class ids are returned. As in Ultralytics, the filter applies to each anchor's best
   * class: an anchor whose best class is filtered out is dropped, not demoted to its second class.
   */
  readonly classes?: readonly number[];
  /** Suppress across classes. Default false (class-aware, Ultralytics' default). */
  readonly agnostic?: boolean;
  /** Candidates handed to NMS at most, the best first (Ultralytics max_nms). Default 30000. */
  readonly maxCandidates?: number;
}

export interface ResolvedYoloSelectOptions {
  readonly scoreThreshold: number;
  readonly iouThreshold: number;
  readonly maxDetections: number;
  readonly classes: ReadonlySet<number> | undefined;
  readonly agnostic: boolean;
  readonly maxCandidates: number;
}

/** Where candidate values live. Box values are multiplied by boxScaleX/Y (1 unless normalized). */
export type YoloCandidateSource =
  | {
      /** Ultralytics: value(channel, anchor) = data[channel * channelStride + anchor * anchorStride]. */
      readonly kind: 'channels';
      readonly data: Float32Array;
      readonly numAnchors: number;
      readonly channelStride: number;
      readonly anchorStride: number;
      /** Channels 0..3 are cx, cy, w, h; class scores are channels 4 .. 4 + numClasses - 1. */
      readonly numClasses: number;
      readonly boxScaleX: number;
      readonly boxScaleY: number;
    }
  | {
      /** AI Hub: boxes [N, 4] x1 y1 x2 y2, best score [N], best class [N]. */
      readonly kind: 'split';
      readonly boxes: Float32Array;
      readonly scores: Float32Array;
      readonly classIds: Float32Array;
      readonly numAnchors: number;
      readonly boxScaleX: number;
      readonly boxScaleY: number;
    };

/** Survivors, best first: boxes x1 y1 x2 y2 in network pixels, and the anchor each came from. */
export interface YoloCandidates {
  readonly count: number;
  readonly boxes: Float32Array;
  readonly scores: Float32Array;
  readonly classIds: Int32Array;
  readonly anchors: Int32Array;
}

export function resolveYoloSelectOptions(o: YoloSelectOptions): ResolvedYoloSelectOptions {
  const scoreThreshold = o.scoreThreshold ?? 0.25;
  const iouThreshold = o.iouThreshold ?? 0.7;
  const maxDetections = o.maxDetections ?? 300;
  const maxCandidates = o.maxCandidates ?? 30000;
  if (!Number.isFinite(scoreThreshold)) {
    throw new HeadError('BAD_OPTION', `scoreThreshold must be finite, got ${scoreThreshold}`);
  }
  checkNmsLimits(iouThreshold, maxDetections);
  if (!Number.isInteger(maxCandidates) || maxCandidates < 1) {
    throw new HeadError(
      'BAD_OPTION',
      `maxCandidates must be an integer >= 1, got ${maxCandidates}`,
    );
  }
  if (o.classes !== undefined && !o.classes.every((c) => Number.isInteger(c) && c >= 0)) {
    throw new HeadError(
      'BAD_OPTION',
      `classes must be integer class ids >= 0, got [${o.classes.join(', ')}]`,
    );
  }
  return {
    scoreThreshold,
    iouThreshold,
    maxDetections,
    classes: o.classes === undefined ? undefined : new Set(o.classes),
    agnostic: o.agnostic ?? false,
    maxCandidates,
  };
}

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The largest float32 not above `t`: a float32 score beats it exactly when it beats `t`. */
function float32AtMost(t: number): number {
  f32[0] = t;
  if (f32[0]! <= t) return f32[0]!;
  // Rounded up: step one float32 towards -Infinity (the bit pattern's magnitude grows below 0).
  f32Bits[0] = f32Bits[0]! + (f32[0]! > 0 ? -1 : 1);
  return f32[0]!;
}

/** Per-anchor best score and class, reused across calls (the head runs once per frame). */
let bestScores = new Float32Array(0);
let bestClasses = new Int32Array(0);

/**
 * Best class of every anchor of an Ultralytics tensor whose best score is above `threshold`,
 * scanning each class channel in memory order (contiguous for the usual channels-first
 * [1, 4 + C, N] layout) instead of striding across the channels anchor by anchor: the same
 * comparisons in the same class order, so the same winner (the first class on ties, none for NaN
 * scores). Starting from the threshold instead of -Infinity gives the same winners for the anchors
 * kept (the best class is the best of those above it) and leaves class -1 on the others, which are
 * dropped anyway: most anchors of a frame never store anything.
 */
function bestClassPerAnchor(
  src: Extract<YoloCandidateSource, { kind: 'channels' }>,
  threshold: number,
): void {
  const n = src.numAnchors;
  if (bestScores.length < n) {
    bestScores = new Float32Array(n);
    bestClasses = new Int32Array(n);
  }
  bestScores.fill(float32AtMost(threshold), 0, n);
  bestClasses.fill(-1, 0, n);
  const { data, channelStride: cs, anchorStride: as } = src;
  for (let c = 0; c < src.numClasses; c++) {
    const off = (4 + c) * cs;
    for (let a = 0; a < n; a++) {
      const v = data[off + a * as]!;
      if (v > bestScores[a]!) {
        bestScores[a] = v;
        bestClasses[a] = c;
      }
    }
  }
}

/**
 * Score threshold, best class per anchor, class filter, degenerate-box removal, then NMS and the
 * detection cap. Boxes with a non-finite coordinate or a width or height <= 0 are dropped: they can
 * be neither drawn nor masked.
 */
export function selectYoloCandidates(
  src: YoloCandidateSource,
  o: ResolvedYoloSelectOptions,
): YoloCandidates {
  const n = src.numAnchors;
  const cand: number[] = [];
  const candScore: number[] = [];
  const candClass: number[] = [];
  const candBox: number[] = [];
  const sx = src.boxScaleX;
  const sy = src.boxScaleY;
  if (src.kind === 'channels') bestClassPerAnchor(src, o.scoreThreshold);
  for (let a = 0; a < n; a++) {
    let best = -Infinity;
    let bestClass = -1;
    let x1: number, y1: number, x2: number, y2: number;
    if (src.kind === 'channels') {
      const { data, channelStride: cs, anchorStride: as } = src;
      const base = a * as;
      bestClass = bestClasses[a]!;
      if (bestClass < 0) continue;
      best = bestScores[a]!;
      if (!(best > o.scoreThreshold)) continue;
      const cx = data[base]! * sx;
      const cy = data[base + cs]! * sy;
      const w = data[base + 2 * cs]! * sx;
      const h = data[base + 3 * cs]! * sy;
      x1 = cx - w / 2;
      y1 = cy - h / 2;
      x2 = cx + w / 2;
      y2 = cy + h / 2;
    } else {
      best = src.scores[a]!;
      if (!(best > o.scoreThreshold)) continue;
      const c = src.classIds[a]!;
      bestClass = Number.isFinite(c) ? Math.round(c) : -1;
      x1 = src.boxes[4 * a]! * sx;
      y1 = src.boxes[4 * a + 1]! * sy;
      x2 = src.boxes[4 * a + 2]! * sx;
      y2 = src.boxes[4 * a + 3]! * sy;
    }
    if (bestClass < 0) continue;
    if (o.classes !== undefined && !o.classes.has(bestClass)) continue;
    if (!(x2 - x1 > 0 && y2 - y1 > 0) || !Number.isFinite(x1 + y1 + x2 + y2)) continue;
    cand.push(a);
    candScore.push(best);
    candClass.push(bestClass);
    candBox.push(x1, y1, x2, y2);
  }

  let idx = cand.map((_, i) => i);
  if (idx.length > o.maxCandidates) {
    idx.sort((p, q) => candScore[q]! - candScore[p]! || p - q);
    idx = idx.slice(0, o.maxCandidates);
  }
  const m = idx.length;
  const boxes = new Float32Array(4 * m);
  const scores = new Float32Array(m);
  const classIds = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const i = idx[j]!;
    boxes.set(candBox.slice(4 * i, 4 * i + 4), 4 * j);
    scores[j] = candScore[i]!;
    classIds[j] = candClass[i]!;
  }
  const kept = nonMaxSuppression(boxes, scores, classIds, {
    iouThreshold: o.iouThreshold,
    maxDetections: o.maxDetections,
    classAware: !o.agnostic,
  });
  const k = kept.length;
  const out: YoloCandidates = {
    count: k,
    boxes: new Float32Array(4 * k),
    scores: new Float32Array(k),
    classIds: new Int32Array(k),
    anchors: new Int32Array(k),
  };
  for (let j = 0; j < k; j++) {
    const i = kept[j]!;
    out.boxes.set(boxes.subarray(4 * i, 4 * i + 4), 4 * j);
    out.scores[j] = scores[i]!;
    out.classIds[j] = classIds[i]!;
    out.anchors[j] = cand[idx[i]!]!;
  }
  return out;
}
