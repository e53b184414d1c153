import type { AgreementReport } from './int8Agreement';
import type { AgreementThresholds, ThresholdName } from './agreementThresholds';
import { THRESHOLD_FLAGS } from './agreementThresholds';
import type { QuantizedPrecision } from '../core/precisions';

export interface ReportRow {
  readonly metric: string;
  readonly value: string;
  readonly limit: string;
}

const fixed = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined ? 'n/a' : v.toFixed(digits);

/** The agreement as table rows, each with the threshold that applies to it (if set). */
export function reportRows(
  r: AgreementReport,
  t: AgreementThresholds,
  precision: QuantizedPrecision = 'int8',
): ReportRow[] {
  const limit = (name: ThresholdName, sense: '>=' | '<='): string =>
    t[name] === undefined ? '-' : `${sense} ${t[name]} (--${THRESHOLD_FLAGS[name].flag})`;
  const rows: ReportRow[] = [{ metric: 'validation images', value: String(r.images), limit: '-' }];
  const d = r.detections;
  if (d) {
    const what = r.task === 'pose' ? 'persons' : r.task === 'segment' ? 'instances' : 'detections';
    rows.push(
      { metric: `${what} fp32 / ${precision}`, value: `${d.fp32} / ${d.int8}`, limit: '-' },
      {
        metric: 'matched (IoU >= 0.5, same class)',
        value: `${d.matched}, rate ${fixed(d.matchRate)}`,
        limit: limit('minMatchRate', '>='),
      },
      {
        metric: 'mean box IoU of matches',
        value: fixed(d.meanIou),
        limit: limit('minMeanIou', '>='),
      },
      {
        metric: 'score drift max / mean',
        value: `${fixed(d.maxScoreDrift)} / ${fixed(d.meanScoreDrift)}`,
        limit: limit('maxScoreDrift', '<='),
      },
    );
  }
  if (r.keypoints) {
    rows.push(
      {
        metric: 'keypoint distance (px, mean)',
        value: fixed(r.keypoints.meanDistancePx, 2),
        limit: limit('maxKeypointPx', '<='),
      },
      { metric: 'OKS (mean)', value: fixed(r.keypoints.meanOks), limit: limit('minOks', '>=') },
    );
  }
  if (r.masks) {
    rows.push({
      metric: 'instance mask IoU (mean)',
      value: fixed(r.masks.meanMaskIou),
      limit: limit('minMaskIou', '>='),
    });
  }
  if (r.semantic) {
    rows.push(
      {
        metric: `mIoU vs FP32 map (${r.semantic.classes.length} classes)`,
        value: fixed(r.semantic.meanIou),
        limit: limit('minMiou', '>='),
      },
      { metric: 'pixels with the same label', value: fixed(r.semantic.pixelAgreement), limit: '-' },
    );
  }
  return rows;
}
