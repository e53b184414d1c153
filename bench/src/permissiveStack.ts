/**
 * npm run bench:permissive [-- --json out.json]
 *
 * The permissive stack (issue 42) against the default one, on this CPU in one run:
 *  - NanoDet vs YOLO11n on the bootstrap photos and the photos of people: YOLO11n's boxes that
 *    NanoDet also finds (same class, IoU >= 0.5), for people and for every class, by box size;
 *  - MoveNet vs BlazePose (full) on the photos of people, per person YOLO11n finds: Lightning on
 *    the same box, MultiPose's person whose box matches (IoU >= 0.5), OKS against BlazePose's
 *    COCO-17 keypoints (COCO's sigmas, the YOLO box's area);
 *  - inference p50 of each model (the pipeline's whole time per photo, per person for the
 *    top-down ones), interleaved photo by photo.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import {
  boxIou,
  ModelPipeline,
  formatTable,
  keypointAgreement,
  listPhotos,
  loadRgbFrame,
  packagePath,
  percentile,
  printedHelp,
  type Box,
  type Detection,
  type PersonPose,
} from '../../src/index';
import { parseBenchArgs } from './benchArgs';
import { runBench, writeBenchJson } from './benchOutput';

const USAGE = `npm run bench:permissive [-- --json out.json]

The permissive stack against the default one, FP32 on the CPU, in one run: YOLO11n's boxes NanoDet
also finds (same class, IoU >= 0.5; by class and size), MoveNet Lightning and MultiPose against
BlazePose full per person YOLO11n finds (OKS), and each model's inference p50. Photos: the
bootstrap photos and the photos of people (.cache/photos, .cache/photos-people).`;

const PHOTOS = [packagePath('.cache', 'photos'), packagePath('.cache', 'photos-people')];
const PEOPLE = packagePath('.cache', 'photos-people');
/** Each detector at its own operating point: YOLO's default, NanoDet's demo threshold. */
const YOLO_SCORE = 0.25;
const NANODET_SCORE = 0.35;
/** People the pose comparison runs on: YOLO11n's confident ones. */
const PERSON_SCORE = 0.5;

/** COCO's size buckets, by the box's area in source pixels. */
function sizeOf(b: Box): 'small' | 'medium' | 'large' {
  const a = (b.x2 - b.x1) * (b.y2 - b.y1);
  return a < 32 * 32 ? 'small' : a < 96 * 96 ? 'medium' : 'large';
}

const MODEL_DIRS: Record<string, string> = {
  yolo11n: 'yolo11n',
  nanodet: 'nanodet',
  'blazepose-full': 'mediapipe',
  'movenet-lightning': 'movenet',
  'movenet-multipose': 'movenet',
};

async function load(name: string, score?: number): Promise<ModelPipeline> {
  const file = packagePath('models', MODEL_DIRS[name] ?? name, `${name}.manifest.json`);
  if (!fs.existsSync(file)) throw new Error(`${file} missing: run scripts/bootstrap.sh`);
  const p = await ModelPipeline.load(file, { provider: 'cpu', precision: 'fp32', threads: 2 });
  if (score !== undefined) p.setThresholds({ ...p.thresholds, score });
  return p;
}

const p50 = (v: number[]) => (v.length ? percentile(v, 50) : NaN);
const r3 = (v: number) => Math.round(v * 1000) / 1000;

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const yolo = await load('yolo11n', YOLO_SCORE);
  const nanodet = await load('nanodet', NANODET_SCORE);
  const blazepose = await load('blazepose-full');
  const lightning = await load('movenet-lightning');
  const multipose = await load('movenet-multipose', 0.2);
  const ms: Record<string, number[]> = {
    yolo11n: [],
    nanodet: [],
    'blazepose-full': [],
    'movenet-lightning': [],
    'movenet-multipose': [],
  };
  const det = { yolo: 0, nanodet: 0, matched: 0, people: 0, peopleMatched: 0 };
  const bySize: Record<string, { yolo: number; matched: number }> = {};
  const byClass: Record<string, { yolo: number; matched: number }> = {};
  const pose = {
    people: 0,
    lightningOks: [] as number[],
    multiposeOks: [] as number[],
    multiposeFound: 0,
  };
  const names = yolo.manifest.classNames;
  for (const dir of PHOTOS) {
    for (const file of listPhotos(dir)) {
      const frame = await loadRgbFrame(file);
      const y = await yolo.run(frame);
      const n = await nanodet.run(frame);
      if (y.task !== 'detect' || n.task !== 'detect') throw new Error('detectors give detections');
      ms.yolo11n!.push(y.timings.totalMs);
      ms.nanodet!.push(n.timings.totalMs);
      det.yolo += y.detections.length;
      det.nanodet += n.detections.length;
      for (const d of y.detections) {
        const hit = n.detections.some(
          (e) => e.classId === d.classId && boxIou(d.box, e.box) >= 0.5,
        );
        const c = (byClass[names[d.classId] ?? String(d.classId)] ??= { yolo: 0, matched: 0 });
        const s = (bySize[sizeOf(d.box)] ??= { yolo: 0, matched: 0 });
        c.yolo++;
        s.yolo++;
        if (hit) {
          det.matched++;
          c.matched++;
          s.matched++;
        }
        if (d.classId === 0) {
          det.people++;
          if (hit) det.peopleMatched++;
        }
      }
      if (dir !== PEOPLE) continue;
      const people: Detection[] = y.detections.filter(
        (d) => d.classId === 0 && d.score >= PERSON_SCORE,
      );
      const mp = await multipose.run(frame);
      if (mp.task !== 'pose') throw new Error('MultiPose gives poses');
      ms['movenet-multipose']!.push(mp.timings.totalMs);
      for (const person of people) {
        const b = await blazepose.run(frame, [person.box]);
        const l = await lightning.run(frame, [person.box]);
        if (b.task !== 'pose' || l.task !== 'pose') throw new Error('top-down models give poses');
        ms['blazepose-full']!.push(b.timings.totalMs);
        ms['movenet-lightning']!.push(l.timings.totalMs);
        const ref: PersonPose | undefined = b.poses[0];
        if (!ref) continue;
        pose.people++;
        const lp = l.poses[0];
        if (lp)
          pose.lightningOks.push(keypointAgreement(ref.keypoints, lp.keypoints, person.box).oks);
        const m = mp.poses.find((q) => boxIou(q.box, person.box) >= 0.5);
        if (m) {
          pose.multiposeFound++;
          pose.multiposeOks.push(keypointAgreement(ref.keypoints, m.keypoints, person.box).oks);
        }
      }
    }
  }
  for (const p of [yolo, nanodet, blazepose, lightning, multipose]) p.dispose();
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const missed = Object.entries(byClass)
    .filter(([, c]) => c.yolo - c.matched >= 2)
    .sort((a, b) => b[1].yolo - b[1].matched - (a[1].yolo - a[1].matched))
    .map(([k, c]) => ({ class: k, yolo: c.yolo, nanodet_matched: c.matched }));
  const figures = {
    date: new Date().toISOString(),
    cpu,
    cores: os.cpus().length,
    threads: 2,
    photos: PHOTOS.map((d) => `${d} (${listPhotos(d).length})`),
    detection: {
      yolo_score: YOLO_SCORE,
      nanodet_score: NANODET_SCORE,
      yolo_boxes: det.yolo,
      nanodet_boxes: det.nanodet,
      yolo_boxes_nanodet_found: det.matched,
      rate: r3(det.matched / Math.max(1, det.yolo)),
      yolo_people: det.people,
      people_both_found: det.peopleMatched,
      people_rate: r3(det.peopleMatched / Math.max(1, det.people)),
      by_size: bySize,
      most_missed_classes: missed,
    },
    pose: {
      people: pose.people,
      lightning_oks_vs_blazepose_mean: r3(
        pose.lightningOks.reduce((a, b) => a + b, 0) / Math.max(1, pose.lightningOks.length),
      ),
      lightning_oks_vs_blazepose_p50: r3(p50(pose.lightningOks)),
      multipose_found: pose.multiposeFound,
      multipose_oks_vs_blazepose_mean: r3(
        pose.multiposeOks.reduce((a, b) => a + b, 0) / Math.max(1, pose.multiposeOks.length),
      ),
      multipose_oks_vs_blazepose_p50: r3(p50(pose.multiposeOks)),
    },
    p50_ms: Object.fromEntries(
      Object.entries(ms).map(([k, v]) => [k, { p50: r3(p50(v)), runs: v.length }]),
    ),
  };
  console.log(
    `permissive stack vs default, ${cpu}, ${os.cpus().length} cores, 2 threads, FP32 on the CPU`,
  );
  console.log(
    formatTable([
      {
        comparison: 'YOLO11n boxes NanoDet also finds (same class, IoU >= 0.5)',
        value: `${det.matched} / ${det.yolo} (${figures.detection.rate})`,
      },
      {
        comparison: '... of them people',
        value: `${det.peopleMatched} / ${det.people} (${figures.detection.people_rate})`,
      },
      ...Object.entries(bySize).map(([k, s]) => ({
        comparison: `... ${k} boxes`,
        value: `${s.matched} / ${s.yolo}`,
      })),
      { comparison: 'NanoDet boxes in all', value: String(det.nanodet) },
      {
        comparison: `MoveNet Lightning vs BlazePose full, OKS mean (p50), ${pose.lightningOks.length} people`,
        value: `${figures.pose.lightning_oks_vs_blazepose_mean} (${figures.pose.lightning_oks_vs_blazepose_p50})`,
      },
      {
        comparison: `MoveNet MultiPose vs BlazePose full, OKS mean (p50); found ${pose.multiposeFound} of ${pose.people}`,
        value: `${figures.pose.multipose_oks_vs_blazepose_mean} (${figures.pose.multipose_oks_vs_blazepose_p50})`,
      },
    ]),
  );
  console.log(
    formatTable(
      Object.entries(figures.p50_ms).map(([model, v]) => ({
        model,
        'p50 ms': v.p50,
        runs: v.runs,
        per: /lightning|blazepose/.test(model) ? 'person' : 'photo',
      })),
    ),
  );
  if (missed.length) console.log(formatTable(missed));
  if (args.jsonPath) writeBenchJson(args.jsonPath, figures);
}

runBench(main);
