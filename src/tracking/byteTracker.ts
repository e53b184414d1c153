import type { Box, Detection } from '../core/headResults';
import { boxIou } from '../core/boxIou';
import { BoxKalmanFilter } from './boxKalmanFilter';
import { minCostAssignment } from './minCostAssignment';
import { TrackIdPool } from './trackIdPool';
import { LOW_STAGE_MIN_IOU, TENTATIVE_STAGE_MIN_IOU, TrackerOptions } from './trackerOptions';
import { withFields } from '../core/withFields';

/**
 * Where a track is in its life:
 *  - tentative: started from one high detection; confirmed if matched on the next frame, else
 *    removed (a single-frame false positive never gets an id on the wire);
 *  - tracked:   confirmed and matched on the latest frame;
 *  - lost:      confirmed, not matched lately; predicted on, matched again by a high detection,
 *               removed after `buffer` frames without one.
 * Removed tracks are dropped from the tracker and their id goes back to the pool.
 */
export type TrackState = 'tentative' | 'tracked' | 'lost';

export interface TrackView {
  /** Given when the track is confirmed; 0 while it is tentative. */
  readonly id: number;
  readonly classId: number;
  readonly state: TrackState;
  /** The filter's box: corrected on a matched frame, predicted otherwise (source pixels). */
  readonly box: Box;
}

export type Tracked<T extends Detection> = T & { readonly trackId: number };

interface Track {
  /** 0 until confirmed: ids go only to tracks that are published, so they stay dense. */
  id: number;
  readonly classId: number;
  readonly filter: BoxKalmanFilter;
  state: TrackState;
  /** Frame number of the last match. */
  lastSeen: number;
}

interface Candidate<T> {
  readonly index: number;
  readonly detection: T;
}

/**
 * ByteTrack (Zhang et al., ECCV 2022) on one node's detections, per class: a person is never
 * matched to a car, every class has its own association, and all classes share one id space.
 *
 * Each `update` is one frame: every track is predicted, then
 *  1. confirmed tracks (tracked and lost) meet the high detections (IoU >= matchIou);
 *  2. tracks still tracked that found nothing meet the low detections (IoU >= 0.5); those that
 *     find nothing again become lost;
 *  3. tentative tracks meet the high detections left (IoU >= 0.3); unmatched, they are removed;
 *  4. high detections left scoring >= newTrackThreshold start tentative tracks;
 *  5. lost tracks older than `buffer` frames are removed.
 * Each stage is an optimal assignment on 1 - IoU (minCostAssignment).
 *
 * The result is the detections that continued a confirmed track this frame, with its id, in the
 * order given (heads sort by score). Detections that started a tentative track, low detections
 * that continued none, and detections below lowThreshold are left out: as in ByteTrack, only
 * tracked objects are output. On the very first frame after a reset the new tracks are confirmed
 * at once (as ByteTrack does), so the first frame is not empty.
 */
export class ByteTracker {
  private tracks: Track[] = [];
  private readonly ids = new TrackIdPool();
  private frame = 0;

  constructor(private options: TrackerOptions) {}

  /** New thresholds apply from the next frame; the tracks are kept. */
  setOptions(o: TrackerOptions): void {
    this.options = o;
  }

  /** Live tracks by state, for diagnostics (a count, without building the views). */
  get counts(): Readonly<Record<TrackState, number>> {
    const c = { tentative: 0, tracked: 0, lost: 0 };
    for (const t of this.tracks) c[t.state]++;
    return c;
  }

  get trackViews(): readonly TrackView[] {
    return this.tracks.map((t) => ({
      id: t.id,
      classId: t.classId,
      state: t.state,
      box: t.filter.box,
    }));
  }

  update<T extends Detection>(detections: readonly T[]): Tracked<T>[] {
    const o = this.options;
    this.frame++;
    const high: Candidate<T>[] = [];
    const low: Candidate<T>[] = [];
    detections.forEach((detection, index) => {
      if (!usable(detection)) return;
      if (detection.score >= o.highThreshold) high.push({ index, detection });
      else if (detection.score >= o.lowThreshold) low.push({ index, detection });
    });
    for (const t of this.tracks) t.filter.predict();

    const ids = new Map<number, number>(); // detection index -> track id
    const confirm = (t: Track, c: Candidate<T>): void => {
      if (t.id === 0) {
        const id = this.ids.take();
        // All 65535 ids are held by live tracks: this one stays tentative until one is freed.
        if (id === undefined) return;
        t.id = id;
      }
      t.state = 'tracked';
      ids.set(c.index, t.id);
    };
    const take = (t: Track, c: Candidate<T>): void => {
      t.filter.update(c.detection.box);
      t.lastSeen = this.frame;
      confirm(t, c);
    };

    const confirmed = this.tracks.filter((t) => t.state !== 'tentative');
    const first = associate(confirmed, high, o.matchIou);
    for (const [t, c] of first.pairs) take(t, c);

    const stillTracked = first.tracks.filter((t) => t.state === 'tracked');
    const second = associate(stillTracked, low, LOW_STAGE_MIN_IOU);
    for (const [t, c] of second.pairs) take(t, c);
    for (const t of second.tracks) t.state = 'lost';

    const tentative = this.tracks.filter((t) => t.state === 'tentative');
    const third = associate(tentative, first.candidates, TENTATIVE_STAGE_MIN_IOU);
    for (const [t, c] of third.pairs) take(t, c);
    const removed = new Set<Track>(third.tracks);

    for (const t of this.tracks) {
      if (t.state === 'lost' && this.frame - t.lastSeen > o.buffer) removed.add(t);
    }
    const born: Track[] = [];
    for (const c of third.candidates) {
      if (c.detection.score < o.newTrackThreshold) continue;
      const t: Track = {
        id: 0,
        classId: c.detection.classId,
        filter: new BoxKalmanFilter(c.detection.box),
        state: 'tentative',
        lastSeen: this.frame,
      };
      born.push(t);
      if (this.frame === 1) confirm(t, c);
    }
    for (const t of removed) if (t.id !== 0) this.ids.release(t.id);
    this.tracks = [...this.tracks.filter((t) => !removed.has(t)), ...born];

    const out: Tracked<T>[] = [];
    detections.forEach((d, i) => {
      const id = ids.get(i);
      if (id !== undefined) out.push(withFields(d, { trackId: id }));
    });
    return out;
  }
}

/** A detection the filter can take: finite corners, positive area, finite score. */
function usable(d: Detection): boolean {
  const b = d.box;
  return Number.isFinite(b.x1 + b.y1 + b.x2 + b.y2 + d.score) && b.x2 > b.x1 && b.y2 > b.y1;
}

interface Association<T> {
  readonly pairs: Array<readonly [Track, Candidate<T>]>;
  /** Tracks and candidates left unmatched, in their given order. */
  readonly tracks: Track[];
  readonly candidates: Candidate<T>[];
}

/** Optimal IoU matching of tracks to candidates, class by class. */
function associate<T extends Detection>(
  tracks: readonly Track[],
  candidates: readonly Candidate<T>[],
  minIou: number,
): Association<T> {
  const pairs: Array<readonly [Track, Candidate<T>]> = [];
  const matchedTracks = new Set<Track>();
  const matchedCandidates = new Set<Candidate<T>>();
  const classes = new Set(tracks.map((t) => t.classId));
  for (const cls of classes) {
    const ts = tracks.filter((t) => t.classId === cls);
    const cs = candidates.filter((c) => c.detection.classId === cls);
    if (cs.length === 0) continue;
    const boxes = ts.map((t) => t.filter.box);
    const cost = new Float64Array(ts.length * cs.length);
    for (let i = 0; i < ts.length; i++) {
      for (let j = 0; j < cs.length; j++) {
        cost[i * cs.length + j] = 1 - boxIou(boxes[i]!, cs[j]!.detection.box);
      }
    }
    for (const [i, j] of minCostAssignment(cost, ts.length, cs.length, 1 - minIou)) {
      const t = ts[i]!;
      const c = cs[j]!;
      pairs.push([t, c]);
      matchedTracks.add(t);
      matchedCandidates.add(c);
    }
  }
  return {
    pairs,
    tracks: tracks.filter((t) => !matchedTracks.has(t)),
    candidates: candidates.filter((c) => !matchedCandidates.has(c)),
  };
}
