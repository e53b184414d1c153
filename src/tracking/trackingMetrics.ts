import type { Box } from '../core/headResults';
import { boxIou } from '../core/boxIou';
import { minCostAssignment } from './minCostAssignment';

/** One object in one frame: a ground-truth object or a tracker output, by its id. */
export interface IdentifiedBox {
  readonly id: number;
  readonly box: Box;
}

/** Per frame, in frame order. */
export type Sequence = readonly (readonly IdentifiedBox[])[];

export interface TrackingScore {
  /** CLEAR-MOT ID switches: a ground-truth object matched to another output id than last time. */
  readonly idSwitches: number;
  /** Ristani et al. 2016: 2 IDTP / (ground-truth boxes + output boxes), 0..1. */
  readonly idf1: number;
  readonly idtp: number;
  readonly groundTruthBoxes: number;
  readonly outputBoxes: number;
  /** Ground-truth boxes matched by some output in their frame (CLEAR-MOT), over all of them. */
  readonly recall: number;
}

/** A ground-truth box and an output box are the same object from this IoU on (MOT convention). */
export const MATCH_IOU = 0.5;

/**
 * ID switches and IDF1 of `output` against `truth` (same number of frames).
 *  - ID switches: per frame, a correspondence from the previous frame is kept while its boxes
 *    still overlap (IoU >= 0.5), the rest is an optimal IoU assignment; a ground-truth object whose
 *    output id differs from the one it last had counts one switch (CLEAR-MOT, Bernardin 2008).
 *  - IDF1: one output id per ground-truth id for the whole sequence, chosen to maximise the
 *    frames where the two overlap (IoU >= 0.5); IDTP is that count.
 */
export function scoreTracking(truth: Sequence, output: Sequence): TrackingScore {
  if (truth.length !== output.length) {
    throw new RangeError(`${truth.length} ground-truth frames but ${output.length} output frames`);
  }
  let idSwitches = 0;
  let matched = 0;
  let groundTruthBoxes = 0;
  let outputBoxes = 0;
  const last = new Map<number, number>(); // ground-truth id -> output id it last matched
  // overlap.get(g).get(h): frames where ground truth g and output h overlap.
  const overlap = new Map<number, Map<number, number>>();
  for (let f = 0; f < truth.length; f++) {
    const gt = truth[f]!;
    const out = output[f]!;
    groundTruthBoxes += gt.length;
    outputBoxes += out.length;
    for (const g of gt) {
      for (const h of out) {
        if (boxIou(g.box, h.box) < MATCH_IOU) continue;
        const row = overlap.get(g.id) ?? new Map<number, number>();
        row.set(h.id, (row.get(h.id) ?? 0) + 1);
        overlap.set(g.id, row);
      }
    }
    const pairs = new Map<number, number>(); // gt index -> output index
    const usedOut = new Set<number>();
    gt.forEach((g, i) => {
      const prev = last.get(g.id);
      const j = out.findIndex((h) => h.id === prev);
      if (j >= 0 && !usedOut.has(j) && boxIou(g.box, out[j]!.box) >= MATCH_IOU) {
        pairs.set(i, j);
        usedOut.add(j);
      }
    });
    const gi = gt.map((_, i) => i).filter((i) => !pairs.has(i));
    const oj = out.map((_, j) => j).filter((j) => !usedOut.has(j));
    const cost = new Float64Array(gi.length * oj.length);
    gi.forEach((i, a) =>
      oj.forEach((j, b) => (cost[a * oj.length + b] = 1 - boxIou(gt[i]!.box, out[j]!.box))),
    );
    for (const [a, b] of minCostAssignment(cost, gi.length, oj.length, 1 - MATCH_IOU)) {
      pairs.set(gi[a]!, oj[b]!);
    }
    for (const [i, j] of pairs) {
      const g = gt[i]!.id;
      const h = out[j]!.id;
      const prev = last.get(g);
      if (prev !== undefined && prev !== h) idSwitches++;
      last.set(g, h);
      matched++;
    }
  }
  const gIds = [...overlap.keys()];
  const hIds = [...new Set(gIds.flatMap((g) => [...overlap.get(g)!.keys()]))];
  const cost = new Float64Array(gIds.length * hIds.length);
  gIds.forEach((g, a) =>
    hIds.forEach((h, b) => (cost[a * hIds.length + b] = -(overlap.get(g)!.get(h) ?? 0))),
  );
  let idtp = 0;
  for (const [a, b] of minCostAssignment(cost, gIds.length, hIds.length, 0)) {
    idtp -= cost[a * hIds.length + b]!;
  }
  const total = groundTruthBoxes + outputBoxes;
  return {
    idSwitches,
    idf1: total > 0 ? (2 * idtp) / total : 1,
    idtp,
    groundTruthBoxes,
    outputBoxes,
    recall: groundTruthBoxes > 0 ? matched / groundTruthBoxes : 1,
  };
}
