import { ConfigError } from '../core/configError';
import type { Box, Detection } from '../core/headResults';

/**
 * Indices of the classes named in `wanted` among a person detector's `classNames`. A top-down
 * pose model only makes sense on people: with no match the pose pipeline would silently crop
 * cars and dogs, so that is refused with the classes the detector does have.
 */
export function personClassIds(
  classNames: readonly string[],
  wanted: readonly string[],
  detector: string,
): number[] {
  const ids = wanted.map((n) => classNames.indexOf(n)).filter((i) => i >= 0);
  if (ids.length === 0) {
    throw new ConfigError(
      `person_classes [${wanted.join(', ')}] names no class of the person detector ${detector} (${classNames.join(', ')})`,
    );
  }
  return ids;
}

/** The boxes of `detections` whose class is a person class, for the pose model to crop. */
export function personBoxes(
  detections: readonly Detection[],
  personIds: ReadonlySet<number>,
): Box[] {
  return personDetections(detections, personIds).map((d) => d.box);
}

/** The detections whose class is a person class (with their track ids, if tracked). */
export function personDetections(
  detections: readonly Detection[],
  personIds: ReadonlySet<number>,
): Detection[] {
  return detections.filter((d) => personIds.has(d.classId));
}
