import type { IssueSink, ManifestView } from '../modelFamily';

/** The mask parts of a YOLO outputs block, in the packed and the end-to-end layouts alike. */
interface MaskParts {
  readonly maskCoefficients?: number | undefined;
  readonly protos?: unknown;
}

/**
 * What every YOLO prediction row carries after its box and scores, in both Ultralytics layouts:
 * the mask coefficients of a segmentation model (its prototypes declared, exactly then) and three
 * values per keypoint of a pose model. Reports a segment model without prototypes, or another
 * task with them, and returns the number of values those extras add to a row.
 */
export function yoloRowExtras(o: MaskParts, m: ManifestView, issue: IssueSink): number {
  const seg = m.task === 'segment';
  if (seg && (o.protos === undefined || o.maskCoefficients === undefined)) {
    issue(['outputs', 'protos'], 'segment models need protos and maskCoefficients');
  }
  if (!seg && (o.protos !== undefined || o.maskCoefficients !== undefined)) {
    issue(['outputs', 'protos'], `task ${m.task} must not declare mask prototypes`);
  }
  return (
    (seg ? (o.maskCoefficients ?? 0) : 0) +
    (m.task === 'pose' ? (m.keypoints?.names.length ?? 0) * 3 : 0)
  );
}
