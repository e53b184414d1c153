import type { InstanceMask, SemanticMap } from '../core/headResults';

/**
 * IoU of two instance masks, each over its own pixel region of the same source image. Two empty
 * masks agree perfectly (1).
 */
export function instanceMaskIou(a: InstanceMask, b: InstanceMask): number {
  const countA = countOnes(a);
  const countB = countOnes(b);
  // Only the overlap of the two regions can hold shared pixels.
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  let inter = 0;
  for (let y = y1; y < y2; y++) {
    const rowA = (y - a.y) * a.width - a.x;
    const rowB = (y - b.y) * b.width - b.x;
    for (let x = x1; x < x2; x++) if (a.data[rowA + x] && b.data[rowB + x]) inter++;
  }
  const union = countA + countB - inter;
  return union === 0 ? 1 : inter / union;
}

function countOnes(m: InstanceMask): number {
  let n = 0;
  for (let i = 0; i < m.width * m.height; i++) if (m.data[i]) n++;
  return n;
}

/**
 * Per-class intersection and union of label maps, summed over images, so mIoU weighs classes
 * by their pixels across the whole validation set (the usual definition), not per image.
 */
export class LabelMapAgreement {
  private readonly inter = new Map<number, number>();
  private readonly union = new Map<number, number>();
  private agreeing = 0;
  private pixels = 0;

  add(reference: SemanticMap, candidate: SemanticMap): void {
    if (reference.width !== candidate.width || reference.height !== candidate.height) {
      throw new RangeError(
        `label maps differ in size: ${reference.width}x${reference.height} vs ${candidate.width}x${candidate.height}`,
      );
    }
    const n = reference.width * reference.height;
    for (let i = 0; i < n; i++) {
      const r = reference.data[i]!;
      const c = candidate.data[i]!;
      if (r === c) {
        this.agreeing++;
        bump(this.inter, r);
        bump(this.union, r);
      } else {
        bump(this.union, r);
        bump(this.union, c);
      }
    }
    this.pixels += n;
  }

  /** Mean over every class present in either map of intersection / union; 1 with no pixels. */
  get meanIou(): number {
    if (this.union.size === 0) return 1;
    let sum = 0;
    for (const [cls, u] of this.union) sum += (this.inter.get(cls) ?? 0) / u;
    return sum / this.union.size;
  }

  /** Fraction of pixels with the same label. */
  get pixelAgreement(): number {
    return this.pixels === 0 ? 1 : this.agreeing / this.pixels;
  }

  /** Classes present in either map, ascending. */
  get classes(): number[] {
    return [...this.union.keys()].sort((a, b) => a - b);
  }
}

function bump(m: Map<number, number>, k: number): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
