import type { Detection } from '../../core/headResults';
import type { ImageTransform, Tensor } from '../../core/tensor';
import { checkTensorDims } from '../../heads/checkTensorDims';
import { HeadError } from '../../heads/headError';
import { checkImageTransform, mapBoxToSource } from '../../heads/mapBoxToSource';
import { checkNmsLimits, nonMaxSuppression } from '../../heads/nonMaxSuppression';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';

/** One level of NanoDet's head: a stride and its two outputs, one row per grid cell. */
export interface NanodetLevel {
  readonly stride: number;
  /** [1, cells, classes]: class probabilities (the sigmoid is inside the graph). */
  readonly classScores: Tensor;
  /** [1, cells, 4 * (regMax + 1)]: per side (left, top, right, bottom), logits over the bins. */
  readonly boxDistribution: Tensor;
}

export interface NanodetDetectOptions {
  /** Keep a cell whose best class scores strictly above this. */
  readonly scoreThreshold: number;
  readonly iouThreshold: number;
  readonly maxDetections: number;
  /** Only these class ids; as for YOLO, the filter applies to each cell's best class. */
  readonly classes?: readonly number[];
  /** The number of class scores each row must hold, when known (the manifest's class names). */
  readonly numClasses?: number;
  /** Bins per side minus one: a side's distance is at most regMax strides. */
  readonly regMax: number;
  /** Where a cell's centre sits in it, in cells: NanoDet's GFL head 0.5, NanoDet-Plus 0. */
  readonly centerOffset: number;
}

/**
 * NanoDet (Generalized Focal Loss head): per level, each grid cell's best class above the
 * threshold, its box from the expected distance of each side (softmax over the bins, times the
 * stride) around the cell's centre; then class-aware NMS over all levels in network pixels, and
 * the survivors mapped to source pixels. Boxes wholly in the padding are dropped. Best first.
 */
export function decodeNanodetDetections(
  levels: readonly NanodetLevel[],
  transform: ImageTransform,
  o: NanodetDetectOptions,
): Detection[] {
  checkImageTransform(transform);
  checkNmsLimits(o.iouThreshold, o.maxDetections);
  if (!Number.isInteger(o.regMax) || o.regMax < 1) {
    throw new HeadError('BAD_OPTION', `regMax must be an integer >= 1, got ${o.regMax}`);
  }
  const allowed = o.classes === undefined ? undefined : new Set(o.classes);
  const boxes: number[] = [];
  const scores: number[] = [];
  const classIds: number[] = [];
  const bins = o.regMax + 1;
  const distances = new Float64Array(4);
  for (const level of levels) {
    const { cells, classes, gridWidth } = levelShape(level, transform, bins, o.numClasses);
    const cls = readTensorAsFloat(level.classScores);
    const reg = readTensorAsFloat(level.boxDistribution);
    for (let cell = 0; cell < cells; cell++) {
      let best = 0;
      let bestScore = cls[cell * classes]!;
      for (let c = 1; c < classes; c++) {
        const s = cls[cell * classes + c]!;
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
      if (!(bestScore > o.scoreThreshold)) continue;
      if (allowed !== undefined && !allowed.has(best)) continue;
      expectedDistances(reg, cell * 4 * bins, bins, distances);
      const cx = ((cell % gridWidth) + o.centerOffset) * level.stride;
      const cy = (Math.floor(cell / gridWidth) + o.centerOffset) * level.stride;
      boxes.push(
        cx - distances[0]! * level.stride,
        cy - distances[1]! * level.stride,
        cx + distances[2]! * level.stride,
        cy + distances[3]! * level.stride,
      );
      scores.push(bestScore);
      classIds.push(best);
    }
  }
  const b = Float32Array.from(boxes);
  const kept = nonMaxSuppression(b, Float32Array.from(scores), Int32Array.from(classIds), {
    iouThreshold: o.iouThreshold,
    maxDetections: o.maxDetections,
    classAware: true,
  });
  const out: Detection[] = [];
  for (const k of kept) {
    const box = mapBoxToSource(transform, b[4 * k]!, b[4 * k + 1]!, b[4 * k + 2]!, b[4 * k + 3]!);
    if (!(box.x2 > box.x1 && box.y2 > box.y1)) continue;
    out.push({ box, classId: classIds[k]!, score: scores[k]! });
  }
  return out;
}

/** A level's cells and classes, checked against its stride's grid over the network input. */
function levelShape(
  level: NanodetLevel,
  transform: ImageTransform,
  bins: number,
  numClasses: number | undefined,
): { cells: number; classes: number; gridWidth: number } {
  const cd = checkTensorDims(level.classScores, [3], 'NanoDet class scores');
  const rd = checkTensorDims(level.boxDistribution, [3], 'NanoDet box distribution');
  if (!Number.isInteger(level.stride) || level.stride < 1) {
    throw new HeadError(
      'BAD_OPTION',
      `NanoDet stride must be an integer >= 1, got ${level.stride}`,
    );
  }
  const gridWidth = Math.ceil(transform.dstWidth / level.stride);
  const cells = gridWidth * Math.ceil(transform.dstHeight / level.stride);
  const classes = cd[2]!;
  const where = `NanoDet stride ${level.stride} ('${level.classScores.name}', '${level.boxDistribution.name}')`;
  if (cd[0] !== 1 || rd[0] !== 1 || cd[1] !== cells || rd[1] !== cells) {
    throw new HeadError(
      'BAD_SHAPE',
      `${where}: dims [${cd.join(', ')}] and [${rd.join(', ')}], expected [1, ${cells}, C] and [1, ${cells}, ${4 * bins}] for a ${transform.dstWidth}x${transform.dstHeight} input`,
    );
  }
  if (rd[2] !== 4 * bins) {
    throw new HeadError(
      'BAD_SHAPE',
      `${where}: ${rd[2]} box values a cell, expected 4 sides x ${bins} bins (regMax ${bins - 1})`,
    );
  }
  if (classes < 1 || (numClasses !== undefined && classes !== numClasses)) {
    throw new HeadError(
      'BAD_SHAPE',
      `${where}: ${classes} class scores a cell, the model names ${numClasses ?? 'at least 1'}`,
    );
  }
  return { cells, classes, gridWidth };
}

/** Each side's expected bin (softmax over its `bins` logits), written to `out[0..3]`. */
function expectedDistances(
  reg: Float32Array,
  offset: number,
  bins: number,
  out: Float64Array,
): void {
  for (let side = 0; side < 4; side++) {
    const base = offset + side * bins;
    let max = -Infinity;
    for (let k = 0; k < bins; k++) max = Math.max(max, reg[base + k]!);
    let sum = 0;
    let weighted = 0;
    for (let k = 0; k < bins; k++) {
      const e = Math.exp(reg[base + k]! - max);
      sum += e;
      weighted += e * k;
    }
    out[side] = weighted / sum;
  }
}
