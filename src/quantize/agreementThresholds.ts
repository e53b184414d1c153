import type { AgreementReport, AgreementTask } from './int8Agreement';

/** Limits INT8 must meet against FP32; each is optional (unset: not checked). */
export interface AgreementThresholds {
  readonly minMatchRate?: number;
  readonly minMeanIou?: number;
  readonly maxScoreDrift?: number;
  readonly minOks?: number;
  readonly maxKeypointPx?: number;
  readonly minMaskIou?: number;
  readonly minMiou?: number;
}

export type ThresholdName = keyof AgreementThresholds;

/** Command-line flag of each threshold and the tasks it applies to. */
export const THRESHOLD_FLAGS: Readonly<
  Record<ThresholdName, { readonly flag: string; readonly tasks: readonly AgreementTask[] }>
> = {
  minMatchRate: { flag: 'min-match-rate', tasks: ['detect', 'pose', 'segment'] },
  minMeanIou: { flag: 'min-box-iou', tasks: ['detect', 'pose', 'segment'] },
  maxScoreDrift: { flag: 'max-score-drift', tasks: ['detect', 'pose', 'segment'] },
  minOks: { flag: 'min-oks', tasks: ['pose'] },
  maxKeypointPx: { flag: 'max-keypoint-px', tasks: ['pose'] },
  minMaskIou: { flag: 'min-mask-iou', tasks: ['segment'] },
  minMiou: { flag: 'min-miou', tasks: ['semantic'] },
};

/** The flags set in `t` that mean nothing for `task` (the command refuses them). */
export function inapplicableThresholds(t: AgreementThresholds, task: AgreementTask): string[] {
  return (Object.keys(t) as ThresholdName[])
    .filter((k) => t[k] !== undefined && !THRESHOLD_FLAGS[k].tasks.includes(task))
    .map((k) => `--${THRESHOLD_FLAGS[k].flag}`);
}

/** One line per threshold the report misses; empty when INT8 is good enough. */
export function thresholdFailures(r: AgreementReport, t: AgreementThresholds): string[] {
  const out: string[] = [];
  const atLeast = (name: ThresholdName, value: number | null | undefined): void => {
    const limit = t[name];
    if (limit === undefined) return;
    const flag = `--${THRESHOLD_FLAGS[name].flag}`;
    if (value === null || value === undefined)
      out.push(`${flag} ${limit}: nothing matched to measure`);
    else if (value < limit) out.push(`${flag} ${limit}: got ${value.toFixed(3)}`);
  };
  const atMost = (name: ThresholdName, value: number | null | undefined): void => {
    const limit = t[name];
    if (limit === undefined) return;
    const flag = `--${THRESHOLD_FLAGS[name].flag}`;
    if (value === null || value === undefined)
      out.push(`${flag} ${limit}: nothing matched to measure`);
    else if (value > limit) out.push(`${flag} ${limit}: got ${value.toFixed(3)}`);
  };
  atLeast('minMatchRate', r.detections?.matchRate);
  atLeast('minMeanIou', r.detections?.meanIou);
  atMost('maxScoreDrift', r.detections?.maxScoreDrift);
  atLeast('minOks', r.keypoints?.meanOks);
  atMost('maxKeypointPx', r.keypoints?.meanDistancePx);
  atLeast('minMaskIou', r.masks?.meanMaskIou);
  atLeast('minMiou', r.semantic?.meanIou);
  return out;
}
