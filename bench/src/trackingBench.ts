/**
 * Tracker quality on the synthetic scenes (ID switches, IDF1) and the tracker's cost per frame
 * with many objects. Not a test: prints tables and optionally saves JSON:
 *   npm run bench:tracking [-- --json bench/results/figures/tracking.json]
 */
import {
  BYTETRACK_DEFAULTS,
  ByteTracker,
  formatTable,
  percentile,
  printedHelp,
  type Detection,
} from '../../src/index';
import { parseBenchArgs } from './benchArgs';
import { makePrng } from '../../test/support/prng';
import {
  crossingScene,
  noisyScene,
  occlusionScene,
  runScene,
  stopAndGoScene,
} from '../../test/support/trackingScenes';
import { writeBenchJson } from './benchOutput';

/** Printed by --help: this file's header. */
const USAGE = `Tracker quality on the synthetic scenes (ID switches, IDF1) and the tracker's cost per frame
with many objects. Not a test: prints tables and optionally saves JSON:
  npm run bench:tracking [-- --json bench/results/figures/tracking.json]`;
if (printedHelp(process.argv.slice(2), USAGE)) process.exit(0);

const args = parseBenchArgs(process.argv.slice(2));

const quality = [
  crossingScene(),
  occlusionScene(),
  stopAndGoScene(),
  noisyScene(7),
  noisyScene(11),
  noisyScene(23),
].map((scene, i) => {
  const r = runScene(scene, BYTETRACK_DEFAULTS);
  return {
    scene: i >= 3 ? `${scene.name}, seed ${[7, 11, 23][i - 3]}` : scene.name,
    frames: scene.frames.length,
    truth_boxes: r.score.groundTruthBoxes,
    output_boxes: r.score.outputBoxes,
    id_switches: r.score.idSwitches,
    idf1: Number(r.score.idf1.toFixed(3)),
    recall: Number(r.score.recall.toFixed(3)),
    false_positives_out: r.falsePositivesOut,
  };
});
console.log(
  'Tracking quality, ByteTrack defaults (high 0.5, low 0.1, new 0.6, IoU 0.2, 30 frames)',
);
console.log(formatTable(quality));

/**
 * `objects` people on a grid, each moving at its own constant velocity with jittered boxes and a
 * few missed detections, spread over `classes` classes; returns the detections of each frame.
 */
function crowd(objects: number, classes: number, frames: number): Detection[][] {
  const rnd = makePrng(objects * 31 + classes);
  const cols = Math.ceil(Math.sqrt(objects));
  const people = Array.from({ length: objects }, (_, i) => ({
    x: 40 + (i % cols) * 60,
    y: 60 + Math.floor(i / cols) * 130,
    vx: rnd() * 4 - 2,
    vy: rnd() * 2 - 1,
    classId: i % classes,
  }));
  return Array.from({ length: frames }, (_, f) =>
    people
      .filter(() => rnd() > 0.05)
      .map((p) => {
        const cx = p.x + p.vx * f + (rnd() - 0.5) * 2;
        const cy = p.y + p.vy * f + (rnd() - 0.5) * 2;
        return {
          box: { x1: cx - 20, y1: cy - 50, x2: cx + 20, y2: cy + 50 },
          classId: p.classId,
          score: 0.2 + rnd() * 0.75,
        };
      })
      .sort((a, b) => b.score - a.score),
  );
}

const cost = [
  [10, 1],
  [100, 1],
  [100, 10],
  [300, 1],
].map(([objects, classes]) => {
  const frames = crowd(objects!, classes!, 230);
  const tracker = new ByteTracker(BYTETRACK_DEFAULTS);
  for (const f of frames.slice(0, 30)) tracker.update(f);
  const times: number[] = [];
  let out = 0;
  for (const f of frames.slice(30)) {
    const t0 = process.hrtime.bigint();
    out = tracker.update(f).length;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return {
    objects: objects!,
    classes: classes!,
    frames: times.length,
    tracks_out_last_frame: out,
    p50_ms: Number(percentile(times, 50).toFixed(3)),
    p95_ms: Number(percentile(times, 95).toFixed(3)),
  };
});
console.log('\nTracker cost per frame (update: predict, three association stages, bookkeeping)');
console.log(formatTable(cost));

if (args.jsonPath) {
  writeBenchJson(args.jsonPath, { quality, cost });
}
