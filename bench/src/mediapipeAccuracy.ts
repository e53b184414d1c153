/**
 * npm run bench:mediapipe [-- --photos DIR --json out.json]
 *
 * Accuracy of the MediaPipe pipelines (issue 17) on photos of people, against TensorFlow's TFLite
 * interpreter running the original .tflite on the same crops (tools/models/mediapipe_reference.py),
 * and INT8 against FP32:
 *  - BlazePose lite / full / heavy: the person boxes of yolov8s-fall, each cropped as our pipeline
 *    crops it; per person the COCO-17 keypoints of our pipeline vs the interpreter's (px, OKS),
 *    INT8 vs FP32 (px, OKS); the pipeline's time per person.
 *  - selfie segmentation (and landscape): the person mask's IoU with the interpreter's.
 * Prints tables and writes JSON. Models missing from models/mediapipe/ are skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DEFAULT_TOOLS_PYTHON,
  ModelPipeline,
  findModelManifests,
  formatTable,
  instanceMaskIou,
  keypointAgreement,
  listPhotos,
  loadModelManifest,
  loadRgbFrame,
  packagePath,
  percentile,
  planHrnetCrop,
  printedHelp,
  type Box,
  type Frame,
  type Keypoint,
  type PersonPose,
  type Precision,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';

const USAGE = `npm run bench:mediapipe [-- --photos DIR --json out.json]

Accuracy of the MediaPipe pipelines on photos of people: BlazePose keypoints (COCO-17) and selfie
masks of our pipelines against TensorFlow's TFLite interpreter on the same crops, INT8 against
FP32, and BlazePose time per person. Default photos: .cache/photos-people-holdout, the held-out
photos of people (else .cache/photos).`;

const REFERENCE_SCRIPT = packagePath('tools', 'models', 'mediapipe_reference.py');
const MEDIAPIPE_DIR = packagePath('models', 'mediapipe');
/** A reference landmark counts as seen from this visibility (MediaPipe's own cut). */
const VISIBLE = 0.5;

interface Crop {
  readonly photo: string;
  readonly box: Box;
  readonly affine: readonly number[];
}

interface ReferencePose {
  readonly landmarks: [number, number, number][];
  readonly personScore: number;
  /** The same person from the crop rotated as MediaPipe aligns it. */
  readonly aligned: {
    readonly landmarks: [number, number, number][];
    readonly personScore: number;
    readonly rotationDeg: number;
  };
}

/** What MediaPipe's rotated crop would change: per person, its rotation and the keypoints' move. */
type AlignmentRow = {
  model: string;
  people: number;
  rotation_deg_mean: number;
  rotation_deg_max: number;
  oks_axis_vs_aligned: number;
  px_axis_vs_aligned_mean: number;
  people_over_30deg: number;
  oks_over_30deg: number;
};
interface ReferenceMask {
  readonly mask: string;
  readonly width: number;
  readonly height: number;
}

function reference<T>(tflite: string, kind: 'blazepose' | 'selfie', items: unknown[]): T[] {
  const r = spawnSync(DEFAULT_TOOLS_PYTHON, [REFERENCE_SCRIPT], {
    input: JSON.stringify({ tflite, kind, items }),
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (r.status !== 0)
    throw new Error(`${REFERENCE_SCRIPT} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return (JSON.parse(r.stdout) as { items: T[] }).items;
}

async function load(name: string, precision: Precision): Promise<ModelPipeline | undefined> {
  const file = path.join(MEDIAPIPE_DIR, `${name}.manifest.json`);
  if (!fs.existsSync(file)) return undefined;
  if (precision === 'int8' && !loadModelManifest(file).modelPaths.int8) return undefined;
  return ModelPipeline.load(file, { provider: 'cpu', precision, threads: 2 });
}

function mean(v: readonly number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
}

function round(v: number, digits = 3): number {
  return Number.isFinite(v) ? Number(v.toFixed(digits)) : v;
}

/** Our keypoints against the reference's, over the points the reference sees. */
function pixelDiffs(ours: readonly Keypoint[], ref: readonly Keypoint[]): number[] {
  const d: number[] = [];
  ref.forEach((r, i) => {
    if (r.score < VISIBLE) return;
    d.push(Math.hypot(ours[i]!.x - r.x, ours[i]!.y - r.y));
  });
  return d;
}

type PoseRow = {
  model: string;
  people: number;
  kept_fp32: number;
  px_vs_tflite_mean: number;
  px_vs_tflite_p95: number;
  px_vs_tflite_max: number;
  oks_vs_tflite: number;
  int8_px_mean?: number;
  int8_oks?: number;
  /** Against blazepose-heavy's keypoints on the same crops (MediaPipe's most accurate). */
  oks_vs_heavy?: number;
  ms_per_person_p50: number;
};

async function poseRows(
  frames: Map<string, Frame>,
  crops: readonly Crop[],
): Promise<{ rows: PoseRow[]; alignment: AlignmentRow[]; skipped: string[] }> {
  const rows: PoseRow[] = [];
  const alignment: AlignmentRow[] = [];
  const skipped: string[] = [];
  const found = new Map<string, (readonly Keypoint[] | undefined)[]>();
  for (const name of ['blazepose-lite', 'blazepose-full', 'blazepose-heavy']) {
    const fp32 = await load(name, 'fp32');
    if (!fp32) {
      skipped.push(`${name}: no manifest in ${MEDIAPIPE_DIR}`);
      continue;
    }
    const int8 = await load(name, 'int8');
    const pick = fp32.keypoints.pick ?? [];
    const refs = reference<ReferencePose>(
      fp32.manifest.modelPaths.fp32.replace(/\.onnx$/, '.tflite'),
      'blazepose',
      crops.map((c) => ({ photo: c.photo, affine: c.affine })),
    );
    const px: number[] = [];
    const oks: number[] = [];
    const int8Px: number[] = [];
    const int8Oks: number[] = [];
    const ms: number[] = [];
    const turn: number[] = [];
    const turnOks: number[] = [];
    const turnPx: number[] = [];
    let kept = 0;
    const keypoints: (readonly Keypoint[] | undefined)[] = [];
    found.set(name, keypoints);
    for (let i = 0; i < crops.length; i++) {
      const c = crops[i]!;
      const frame = frames.get(c.photo)!;
      const r = await fp32.run(frame, [c.box]);
      if (r.task !== 'pose') throw new Error(`${name}: not a pose result`);
      ms.push(r.timings.totalMs);
      const ours: PersonPose | undefined = r.poses[0];
      keypoints.push(ours?.keypoints);
      const ref = refs[i]!;
      if (!ours || ref.personScore < 0.5) continue;
      kept++;
      const refKps = pick.map((j) => {
        const [x, y, score] = ref.landmarks[j]!;
        return { x, y, score };
      });
      px.push(...pixelDiffs(ours.keypoints, refKps));
      oks.push(keypointAgreement(refKps, ours.keypoints, c.box).oks);
      if (ref.aligned.personScore >= 0.5) {
        const alignedKps = pick.map((j) => {
          const [x, y, score] = ref.aligned.landmarks[j]!;
          return { x, y, score };
        });
        const a = keypointAgreement(alignedKps, refKps, c.box);
        turn.push(Math.abs(ref.aligned.rotationDeg));
        turnOks.push(a.oks);
        turnPx.push(a.meanDistancePx);
      }
      if (int8) {
        const q = await int8.run(frame, [c.box]);
        const qp = q.task === 'pose' ? q.poses[0] : undefined;
        if (qp) {
          const a = keypointAgreement(ours.keypoints, qp.keypoints, c.box);
          int8Px.push(a.meanDistancePx);
          int8Oks.push(a.oks);
        }
      }
    }
    rows.push({
      model: name,
      people: crops.length,
      kept_fp32: kept,
      px_vs_tflite_mean: round(mean(px)),
      px_vs_tflite_p95: round(percentile(px, 95)),
      px_vs_tflite_max: round(px.length ? Math.max(...px) : NaN),
      oks_vs_tflite: round(mean(oks), 4),
      ...(int8 ? { int8_px_mean: round(mean(int8Px)), int8_oks: round(mean(int8Oks), 4) } : {}),
      ms_per_person_p50: round(percentile(ms, 50), 1),
    });
    const steep = turn.map((d, i) => (d > 30 ? i : -1)).filter((i) => i >= 0);
    alignment.push({
      model: name,
      people: turn.length,
      rotation_deg_mean: round(mean(turn), 1),
      rotation_deg_max: round(turn.length ? Math.max(...turn) : NaN, 1),
      oks_axis_vs_aligned: round(mean(turnOks), 4),
      px_axis_vs_aligned_mean: round(mean(turnPx), 2),
      people_over_30deg: steep.length,
      oks_over_30deg: round(mean(steep.map((i) => turnOks[i]!)), 4),
    });
    if (!int8) skipped.push(`${name} int8: no files.int8 in its manifest`);
    fp32.dispose();
    int8?.dispose();
  }
  const heavy = found.get('blazepose-heavy');
  for (const row of rows) {
    const mine = found.get(row.model);
    if (!heavy || !mine || row.model === 'blazepose-heavy') continue;
    const oks: number[] = [];
    crops.forEach((c, i) => {
      if (heavy[i] && mine[i]) oks.push(keypointAgreement(heavy[i], mine[i], c.box).oks);
    });
    row.oks_vs_heavy = round(mean(oks), 4);
  }
  return { rows, alignment, skipped };
}

type MaskRow = {
  model: string;
  photos: number;
  iou_vs_tflite_mean: number;
  iou_vs_tflite_min: number;
  int8_iou_vs_tflite_mean?: number;
  person_fraction_mean: number;
};

/** Person IoU of two label maps of one image (class 1 = person, the reference 0/1 bytes). */
function personIou(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const whole = (data: Uint8Array) => ({ x: 0, y: 0, width, height, data });
  return instanceMaskIou(whole(a), whole(b));
}

async function maskRows(
  frames: Map<string, Frame>,
): Promise<{ rows: MaskRow[]; skipped: string[] }> {
  const rows: MaskRow[] = [];
  const skipped: string[] = [];
  const photos = [...frames.keys()];
  for (const name of ['selfie-segmentation', 'selfie-segmentation-landscape']) {
    const fp32 = await load(name, 'fp32');
    if (!fp32) {
      skipped.push(`${name}: no manifest in ${MEDIAPIPE_DIR}`);
      continue;
    }
    const int8 = await load(name, 'int8');
    const refs = reference<ReferenceMask>(
      fp32.manifest.modelPaths.fp32.replace(/\.onnx$/, '.tflite'),
      'selfie',
      photos.map((photo) => ({ photo })),
    );
    const iou: number[] = [];
    const int8Iou: number[] = [];
    const fraction: number[] = [];
    for (let i = 0; i < photos.length; i++) {
      const frame = frames.get(photos[i]!)!;
      const ref = Buffer.from(refs[i]!.mask, 'base64');
      const r = await fp32.run(frame);
      if (r.task !== 'semantic') throw new Error(`${name}: not a semantic result`);
      iou.push(personIou(r.map.data, ref, r.map.width, r.map.height));
      fraction.push(r.map.data.reduce((a, v) => a + v, 0) / r.map.data.length);
      if (int8) {
        const q = await int8.run(frame);
        if (q.task === 'semantic')
          int8Iou.push(personIou(q.map.data, ref, q.map.width, q.map.height));
      }
    }
    rows.push({
      model: name,
      photos: photos.length,
      iou_vs_tflite_mean: round(mean(iou), 4),
      iou_vs_tflite_min: round(Math.min(...iou), 4),
      ...(int8 ? { int8_iou_vs_tflite_mean: round(mean(int8Iou), 4) } : {}),
      person_fraction_mean: round(mean(fraction), 3),
    });
    if (!int8) skipped.push(`${name} int8: no files.int8 in its manifest`);
    fp32.dispose();
    int8?.dispose();
  }
  return { rows, skipped };
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const flags = new BenchFlags(args.rest);
  const people = packagePath('.cache', 'photos-people-holdout');
  const photoDir =
    flags.value('--photos') ?? (fs.existsSync(people) ? people : packagePath('.cache', 'photos'));
  flags.finish();
  const frames = new Map<string, Frame>();
  for (const p of listPhotos(photoDir)) frames.set(p, await loadRgbFrame(p));

  // The people: yolov8s-fall's boxes (both its classes are people), as the demo's container.
  const [detectorManifest] = findModelManifests(packagePath('models', 'yolov8-fall'));
  const detector = await ModelPipeline.load(detectorManifest!, {
    provider: 'cpu',
    precision: 'fp32',
    threads: 2,
  });
  const crops: Crop[] = [];
  for (const [photo, frame] of frames) {
    const r = await detector.run(frame);
    if (r.task !== 'detect') throw new Error('the person detector is not a detector');
    for (const d of r.detections) {
      const plan = planHrnetCrop(d.box, frame.width, frame.height, {
        inputWidth: 256,
        inputHeight: 256,
      });
      crops.push({ photo, box: d.box, affine: plan.affine });
    }
  }
  detector.dispose();

  const poses = await poseRows(frames, crops);
  const masks = await maskRows(frames);
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const date = new Date().toISOString().slice(0, 10);
  process.stdout.write(
    `MediaPipe pipelines vs the TFLite interpreter, ${frames.size} photos from ${photoDir}, ${crops.length} people (yolov8s-fall boxes); ${cpu}, ${os.cpus().length} cores, ${date}\n\n` +
      `BlazePose (COCO-17, px over keypoints the interpreter sees; OKS over all 17):\n${formatTable(poses.rows)}\n\n` +
      `MediaPipe's rotated crop (the interpreter on our axis-aligned crop vs on the crop rotated upright; OKS, COCO-17):\n${formatTable(poses.alignment)}\n\n` +
      `selfie segmentation (person mask IoU):\n${formatTable(masks.rows)}\n`,
  );
  for (const s of [...poses.skipped, ...masks.skipped]) process.stdout.write(`skipped: ${s}\n`);
  if (args.jsonPath) {
    fs.mkdirSync(path.dirname(args.jsonPath), { recursive: true });
    fs.writeFileSync(
      args.jsonPath,
      JSON.stringify(
        {
          date,
          cpu,
          cores: os.cpus().length,
          photos: [...frames.keys()].map((p) => path.basename(p)),
          people: crops.length,
          blazepose: poses.rows,
          rotationAlignment: poses.alignment,
          selfie: masks.rows,
          skipped: [...poses.skipped, ...masks.skipped],
        },
        null,
        1,
      ) + '\n',
    );
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
