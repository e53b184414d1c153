import type { Box, Detection } from '../core/headResults';
import type { ByteTracker } from '../tracking/byteTracker';
import type { PipelineResult } from '../core/pipelineResult';
import { withFields } from '../core/withFields';

/**
 * A model's result as tracked objects: detections, instances and bottom-up poses pass through the
 * tracker (only those continuing a track remain, each with its id); a semantic map has no objects.
 */
export function trackResult(r: PipelineResult, tracker: ByteTracker): PipelineResult {
  switch (r.task) {
    case 'detect':
      return { ...r, detections: tracker.update(r.detections) };
    case 'segment':
      return { ...r, instances: tracker.update(r.instances) };
    case 'pose':
      return { ...r, poses: tracker.update(r.poses) };
    case 'semantic':
      return r;
  }
}

/**
 * The people a top-down pose model is to run on, with track ids. People from a detection pipeline
 * that tracks already have ids: those are kept, so a person has the same id on ~/detections and
 * ~/poses. Otherwise this pipeline's tracker tracks them (on the detector's scores, which are what
 * its thresholds mean; HRNet's keypoint score is no detection score).
 */
export function trackPersons(tracker: ByteTracker, people: readonly Detection[]): Detection[] {
  if (people.length > 0 && people.every((p) => p.trackId !== undefined)) return [...people];
  return tracker.update(people);
}

/** Gives each top-down pose the track id of the person whose box it was cropped from. */
export function carryPersonIds(r: PipelineResult, people: readonly Detection[]): PipelineResult {
  if (r.task !== 'pose') return r;
  const ids = new Map<Box, number>();
  for (const p of people) if (p.trackId !== undefined) ids.set(p.box, p.trackId);
  return {
    ...r,
    poses: r.poses.flatMap((p) => {
      const trackId = ids.get(p.box);
      return trackId === undefined ? [] : [withFields(p, { trackId })];
    }),
  };
}
