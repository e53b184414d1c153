import type { YoloBestClasses } from '../../core/outputKernels';
import { HeadError } from '../../heads/headError';
import { checkNmsLimits, nonMaxSuppression } from '../../heads/nonMaxSuppression';
import { yoloBestClassesJs } from '../../heads/outputKernelsJs';

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
  /** The best-class scan over the Ultralytics layout. Default the heads' own (yoloBestClassesJs). */
  readonly bestClasses?: YoloBestClasses;
}

export interface ResolvedYoloSelectOptions {
  readonly scoreThreshold: number;
  readonly iouThreshold: number;
  readonly maxDetections: number;
  readonly classes: ReadonlySet<number> | undefined;
  readonly agnostic: boolean;
  readonly maxCandidates: number;
  readonly bestClasses: YoloBestClasses;
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
    }
  | {
      /**
       * Ultralytics end-to-end (NMS inside the graph): row a is data[a * rowStride ..], x1, y1, x2,
       * y2, score, class id (a float), then extra values. `numAnchors` counts the rows.
       */
      readonly kind: 'rows';
      readonly data: Float32Array;
      readonly numAnchors: number;
      readonly rowStride: number;
      /** When known, a kept row's class id must be below it (the model's class names). */
      readonly numClasses: number | undefined;
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
    bestClasses: o.bestClasses ?? yoloBestClassesJs,
  };
}

/** The anchors above the threshold, their best classes and scores: reused across calls. */
let keptAnchors = new Int32Array(0);
let keptClasses = new Int32Array(0);
let keptScores = new Float32Array(0);

/**
 * Score threshold, best class per anchor, class filter, degenerate-box removal, then NMS and the
 * detection cap. Boxes with a non-finite coordinate or a width or height <= 0 are dropped: they can
 * be neither drawn nor masked. End-to-end rows (kind 'rows') went through the model's own NMS: the
 * same threshold, filter and removal apply, then best first and the cap, without a second NMS
 * (the zero rows that pad the tensor fail the threshold and the box test).
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
  const keep = (
    a: number,
    best: number,
    bestClass: number,
    x1: number,
    y1: number,
    x2: number,
    y2: number,
  ): void => {
    if (!(best > o.scoreThreshold) || bestClass < 0) return;
    if (o.classes !== undefined && !o.classes.has(bestClass)) return;
    if (!(x2 - x1 > 0 && y2 - y1 > 0) || !Number.isFinite(x1 + y1 + x2 + y2)) return;
    cand.push(a);
    candScore.push(best);
    candClass.push(bestClass);
    candBox.push(x1, y1, x2, y2);
  };
  if (src.kind === 'channels') {
    const { data, channelStride: cs, anchorStride: as } = src;
    if (keptAnchors.length < n) {
      keptAnchors = new Int32Array(n);
      keptClasses = new Int32Array(n);
      keptScores = new Float32Array(n);
    }
    const count = o.bestClasses(
      data,
      n,
      src.numClasses,
      cs,
      as,
      o.scoreThreshold,
      keptAnchors,
      keptClasses,
      keptScores,
    );
    for (let j = 0; j < count; j++) {
      const a = keptAnchors[j]!;
      const base = a * as;
      const cx = data[base]! * sx;
      const cy = data[base + cs]! * sy;
      const w = data[base + 2 * cs]! * sx;
      const h = data[base + 3 * cs]! * sy;
      keep(a, keptScores[j]!, keptClasses[j]!, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2);
    }
  } else if (src.kind === 'rows') {
    const { data, rowStride: rs } = src;
    for (let a = 0; a < n; a++) {
      const base = a * rs;
      const score = data[base + 4]!;
      if (!(score > o.scoreThreshold) || !(score > 0)) continue;
      const c = data[base + 5]!;
      // Class ids travel as floats (Ultralytics concatenates them with the boxes); a value that
      // names no class means the tensor is not what the manifest says.
      const cls = Number.isFinite(c) ? Math.round(c) : -1;
      if (cls < 0 || (src.numClasses !== undefined && cls >= src.numClasses)) {
        throw new HeadError(
          'BAD_VALUE',
          `end-to-end row ${a} has class id ${c}${src.numClasses !== undefined ? `, the model has ${src.numClasses} classes` : ''}`,
        );
      }
      keep(
        a,
        score,
        cls,
        data[base]! * sx,
        data[base + 1]! * sy,
        data[base + 2]! * sx,
        data[base + 3]! * sy,
      );
    }
  } else {
    for (let a = 0; a < n; a++) {
      const best = src.scores[a]!;
      if (!(best > o.scoreThreshold)) continue;
      const c = src.classIds[a]!;
      keep(
        a,
        best,
        Number.isFinite(c) ? Math.round(c) : -1,
        src.boxes[4 * a]! * sx,
        src.boxes[4 * a + 1]! * sy,
        src.boxes[4 * a + 2]! * sx,
        src.boxes[4 * a + 3]! * sy,
      );
    }
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
  const kept =
    src.kind === 'rows'
      ? bestFirst(scores, o.maxDetections)
      : nonMaxSuppression(boxes, scores, classIds, {
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

/** Indices by descending score (ties in input order), at most `max` of them. */
function bestFirst(scores: Float32Array, max: number): Int32Array {
  const idx = Array.from({ length: scores.length }, (_, i) => i);
  idx.sort((p, q) => scores[q]! - scores[p]! || p - q);
  return Int32Array.from(idx.slice(0, max));
}
