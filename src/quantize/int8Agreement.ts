import type { PipelineResult } from '../core/pipelineResult';
import type { Detection } from '../core/headResults';
import { matchDetections } from './boxMatching';
import { keypointAgreement } from './keypointAgreement';
import { instanceMaskIou, LabelMapAgreement } from './maskAgreement';

export type AgreementTask = PipelineResult['task'];

/** Detections (or persons, or instances) of INT8 matched to FP32 at IoU >= 0.5, same class. */
export interface DetectionAgreement {
  readonly fp32: number;
  readonly int8: number;
  readonly matched: number;
  /**
   * matched / sum over images of max(fp32, int8): missing and extra boxes both lower it; 1 when
   * neither precision found anything.
   */
  readonly matchRate: number;
  /** Over matched pairs; null when nothing matched. */
  readonly meanIou: number | null;
  readonly maxScoreDrift: number | null;
  readonly meanScoreDrift: number | null;
}

export interface KeypointSummary {
  /** Matched persons whose keypoints were compared. */
  readonly persons: number;
  readonly meanDistancePx: number | null;
  readonly meanOks: number | null;
}

export interface MaskSummary {
  readonly instances: number;
  readonly meanMaskIou: number | null;
}

export interface SemanticSummary {
  /** Mean over classes present in either map of the INT8-vs-FP32 IoU. */
  readonly meanIou: number;
  readonly pixelAgreement: number;
  readonly classes: readonly number[];
}

export interface AgreementReport {
  readonly task: AgreementTask;
  readonly images: number;
  readonly detections?: DetectionAgreement;
  readonly keypoints?: KeypointSummary;
  readonly masks?: MaskSummary;
  readonly semantic?: SemanticSummary;
}

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Accumulates INT8-vs-FP32 agreement image by image, with FP32 as the reference: the question is
 * how much quantization changes what the model says, not whether the model is right.
 */
export class Int8Agreement {
  private images = 0;
  private fp32Count = 0;
  private int8Count = 0;
  private denominator = 0;
  private readonly ious: number[] = [];
  private readonly drifts: number[] = [];
  private readonly distances: number[] = [];
  private readonly oks: number[] = [];
  private readonly maskIous: number[] = [];
  private readonly labels = new LabelMapAgreement();

  constructor(readonly task: AgreementTask) {}

  add(fp32: PipelineResult, int8: PipelineResult): void {
    if (fp32.task !== this.task || int8.task !== this.task) {
      throw new RangeError(`expected ${this.task} results, got ${fp32.task} and ${int8.task}`);
    }
    this.images++;
    if (fp32.task === 'semantic' && int8.task === 'semantic') {
      this.labels.add(fp32.map, int8.map);
      return;
    }
    const ref = objects(fp32);
    const cand = objects(int8);
    this.fp32Count += ref.length;
    this.int8Count += cand.length;
    this.denominator += Math.max(ref.length, cand.length);
    for (const m of matchDetections(ref, cand)) {
      const r = ref[m.reference]!;
      const c = cand[m.candidate]!;
      this.ious.push(m.iou);
      this.drifts.push(Math.abs(c.score - r.score));
      if (fp32.task === 'pose' && int8.task === 'pose') {
        const k = keypointAgreement(
          fp32.poses[m.reference]!.keypoints,
          int8.poses[m.candidate]!.keypoints,
          r.box,
        );
        this.distances.push(k.meanDistancePx);
        this.oks.push(k.oks);
      } else if (fp32.task === 'segment' && int8.task === 'segment') {
        this.maskIous.push(
          instanceMaskIou(fp32.instances[m.reference]!.mask, int8.instances[m.candidate]!.mask),
        );
      }
    }
  }

  report(): AgreementReport {
    const base = { task: this.task, images: this.images };
    if (this.task === 'semantic') {
      const l = this.labels;
      return {
        ...base,
        semantic: { meanIou: l.meanIou, pixelAgreement: l.pixelAgreement, classes: l.classes },
      };
    }
    const detections: DetectionAgreement = {
      fp32: this.fp32Count,
      int8: this.int8Count,
      matched: this.ious.length,
      matchRate: this.denominator === 0 ? 1 : this.ious.length / this.denominator,
      meanIou: mean(this.ious),
      maxScoreDrift: this.drifts.length ? Math.max(...this.drifts) : null,
      meanScoreDrift: mean(this.drifts),
    };
    if (this.task === 'pose') {
      return {
        ...base,
        detections,
        keypoints: {
          persons: this.oks.length,
          meanDistancePx: mean(this.distances),
          meanOks: mean(this.oks),
        },
      };
    }
    if (this.task === 'segment') {
      return {
        ...base,
        detections,
        masks: { instances: this.maskIous.length, meanMaskIou: mean(this.maskIous) },
      };
    }
    return { ...base, detections };
  }
}

function objects(r: PipelineResult): readonly Detection[] {
  switch (r.task) {
    case 'detect':
      return r.detections;
    case 'pose':
      return r.poses;
    case 'segment':
      return r.instances;
    case 'semantic':
      return [];
  }
}
