import type { Box, Detection } from '../../src/core/headResults';
import { boxIou } from '../../src/core/boxIou';
import { ByteTracker } from '../../src/tracking/byteTracker';
import type { TrackerOptions } from '../../src/tracking/trackerOptions';
import {
  IdentifiedBox,
  scoreTracking,
  Sequence,
  TrackingScore,
} from '../../src/tracking/trackingMetrics';
import { makePrng } from './prng';

/**
 * Synthetic trajectories with known ground truth, for the tracker's unit tests and benchmark.
 * Ground truth lists an object in every frame where it is visible (a detector could see it);
 * the detections are what a detector would report: scores, misses, noise and false positives.
 */
export interface SceneFrame {
  readonly detections: readonly Detection[];
  readonly truth: readonly IdentifiedBox[];
}

export interface Scene {
  readonly name: string;
  readonly frames: readonly SceneFrame[];
  /** Detections that belong to no object (false positives), by identity. */
  readonly falsePositives: ReadonlySet<Detection>;
}

const PERSON = 0;

function boxAt(cx: number, cy: number, w: number, h: number): Box {
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
}

/**
 * Two people walk towards each other on nearly the same line at different speeds (+5 and -3 px a
 * frame, 60x150 px boxes) and cross. The one behind is half hidden (score 0.35, a "low"
 * detection) while the boxes overlap with IoU > 0.2, and not seen at all above 0.6.
 */
export function crossingScene(): Scene {
  const frames: SceneFrame[] = [];
  for (let f = 0; f < 100; f++) {
    const a = boxAt(60 + 5 * f, 240, 60, 150);
    const b = boxAt(560 - 3 * f, 250, 60, 150);
    const overlap = boxIou(a, b);
    const detections: Detection[] = [{ box: a, classId: PERSON, score: 0.85 }];
    const truth: IdentifiedBox[] = [{ id: 1, box: a }];
    if (overlap <= 0.6) {
      detections.push({ box: b, classId: PERSON, score: overlap > 0.2 ? 0.35 : 0.8 });
      truth.push({ id: 2, box: b });
    }
    frames.push({ detections, truth });
  }
  return { name: 'crossing paths', frames, falsePositives: new Set() };
}

/**
 * A person walks at +6 px a frame behind a pillar that hides them for 12 frames (within the
 * 30-frame buffer); a second person stands still nearby the whole time.
 */
export function occlusionScene(): Scene {
  const frames: SceneFrame[] = [];
  for (let f = 0; f < 70; f++) {
    const walker = boxAt(50 + 6 * f, 200, 50, 120);
    const standing = boxAt(300, 420, 50, 120);
    const detections: Detection[] = [{ box: standing, classId: PERSON, score: 0.9 }];
    const truth: IdentifiedBox[] = [{ id: 2, box: standing }];
    if (f < 30 || f >= 42) {
      detections.push({ box: walker, classId: PERSON, score: 0.8 });
      truth.push({ id: 1, box: walker });
    }
    frames.push({ detections, truth });
  }
  return { name: 'occlusion gap (12 frames)', frames, falsePositives: new Set() };
}

/**
 * A person walks (+6 px a frame), stops, walks on, stops and walks on; the Kalman velocity must
 * follow each start and stop. A second person does the same vertically, out of phase.
 */
export function stopAndGoScene(): Scene {
  const frames: SceneFrame[] = [];
  const moving = (f: number): boolean => Math.floor(f / 20) % 2 === 0;
  let x = 60;
  let y = 80;
  for (let f = 0; f < 100; f++) {
    if (moving(f)) x += 6;
    if (!moving(f + 10)) y += 5;
    const a = boxAt(x, 400, 50, 120);
    const b = boxAt(520, y, 50, 120);
    frames.push({
      detections: [
        { box: a, classId: PERSON, score: 0.85 },
        { box: b, classId: PERSON, score: 0.75 },
      ],
      truth: [
        { id: 1, box: a },
        { id: 2, box: b },
      ],
    });
  }
  return { name: 'stop and go', frames, falsePositives: new Set() };
}

/**
 * Six people in separate lanes at constant speeds of 2..6 px a frame, seen through a noisy
 * detector: box corners jitter by 3 % of the box size, 10 % of detections are missed, 15 % come
 * with a low score (0.15..0.5), and two false positives a frame land anywhere with any score.
 */
export function noisyScene(seed = 7): Scene {
  const rnd = makePrng(seed);
  const people = Array.from({ length: 6 }, (_, i) => ({
    x: 80 + rnd() * 480,
    y: 80 + i * 110,
    v: (2 + rnd() * 4) * (rnd() < 0.5 ? -1 : 1),
  }));
  const frames: SceneFrame[] = [];
  const falsePositives = new Set<Detection>();
  const jitter = (s: number): number => (rnd() * 2 - 1) * 0.03 * s * Math.sqrt(3);
  for (let f = 0; f < 120; f++) {
    const detections: Detection[] = [];
    const truth: IdentifiedBox[] = [];
    people.forEach((p, i) => {
      const box = boxAt(p.x + p.v * f, p.y, 40, 90);
      truth.push({ id: i + 1, box });
      if (rnd() < 0.1) return;
      const score = rnd() < 0.15 ? 0.15 + rnd() * 0.35 : 0.5 + rnd() * 0.45;
      detections.push({
        box: {
          x1: box.x1 + jitter(40),
          y1: box.y1 + jitter(90),
          x2: box.x2 + jitter(40),
          y2: box.y2 + jitter(90),
        },
        classId: PERSON,
        score,
      });
    });
    for (let k = 0; k < 2; k++) {
      const fp: Detection = {
        box: boxAt(rnd() * 640, rnd() * 720, 20 + rnd() * 60, 40 + rnd() * 100),
        classId: PERSON,
        score: 0.1 + rnd() * 0.8,
      };
      falsePositives.add(fp);
      detections.push(fp);
    }
    // Heads hand detections over sorted by score.
    detections.sort((a, b) => b.score - a.score);
    frames.push({ detections, truth });
  }
  return { name: 'noisy detector (6 people)', frames, falsePositives };
}

export interface SceneRun {
  readonly output: Sequence;
  readonly score: TrackingScore;
  /** False-positive detections the tracker published with an id. */
  readonly falsePositivesOut: number;
}

/** Runs a fresh tracker over the scene and scores its output against the ground truth. */
export function runScene(scene: Scene, options: TrackerOptions): SceneRun {
  const tracker = new ByteTracker(options);
  let falsePositivesOut = 0;
  const output = scene.frames.map((f) =>
    tracker.update(f.detections).map((d) => {
      // The tracker hands back copies; find the original to tell false positives apart.
      if ([...scene.falsePositives].some((fp) => fp.box === d.box && fp.score === d.score)) {
        falsePositivesOut++;
      }
      return { id: d.trackId, box: d.box };
    }),
  );
  const truth = scene.frames.map((f) => f.truth);
  return { output, score: scoreTracking(truth, output), falsePositivesOut };
}
