/**
 * Head timings on realistic tensor sizes (synthetic values, deterministic). Not a test: prints
 * p50 / p95 per head: npm run bench:heads [-- --json out.json]. HRNet and DeepLab also with the
 * engine addon's output kernels, as the pipelines run them.
 */
import { buildInstanceIdImage } from '../heads/buildInstanceIdImage';
import { colorizeLabelMap } from '../heads/colorizeLabelMap';
import { decodeDeeplab } from '../heads/decodeDeeplab';
import { decodeHrnetHeatmaps } from '../families/hrnet/decodeHrnetHeatmaps';
import { decodeYoloDetections } from '../families/yolov8/decodeYoloDetections';
import { decodeYoloPose } from '../families/yolov8/decodeYoloPose';
import { decodeYoloSegmentation } from '../families/yolov8/decodeYoloSegmentation';
import { letterboxTransform } from '../heads/letterboxTransform';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import type { Tensor } from '../core/tensor';
import { makePrng } from './prng';
import { nativeOutputKernels } from '../engine/outputKernels';
import { printedHelp } from '../util/commandHelp';
import { writeBenchJson } from './benchOutput';

/** Printed by --help: this file's header. */
const USAGE = `Head timings on realistic tensor sizes (synthetic values, deterministic). Not a test: prints
p50 / p95 per head: npm run bench:heads [-- --json out.json]. HRNet and DeepLab also with the
engine addon's output kernels, as the pipelines run them.`;
if (printedHelp(process.argv.slice(2), USAGE)) process.exit(0);

const rnd = makePrng(1);
const N = 8400;
const T = letterboxTransform(1280, 720, 640, 640);

/** Ultralytics output with `objects` clusters of 20 confident anchors, the rest below 0.05. */
function yolo(channels: number, nc: number, objects: number): Tensor {
  const d = new Float32Array(channels * N);
  for (let a = 0; a < N; a++) {
    d[a] = rnd() * 640;
    d[N + a] = 140 + rnd() * 360;
    d[2 * N + a] = 20 + rnd() * 100;
    d[3 * N + a] = 20 + rnd() * 100;
    for (let c = 0; c < nc; c++) d[(4 + c) * N + a] = rnd() * 0.05;
    for (let c = 4 + nc; c < channels; c++) d[c * N + a] = rnd() * 2 - 1;
  }
  for (let o = 0; o < objects; o++) {
    for (let j = 0; j < 20; j++) {
      const a = o * 20 + j;
      d[a] = 60 + o * 55 + rnd() * 4;
      d[N + a] = 320 + rnd() * 4;
      d[2 * N + a] = 140;
      d[3 * N + a] = 150;
      d[(4 + (o % nc)) * N + a] = 0.5 + rnd() * 0.4;
    }
  }
  return { name: 'output0', dims: [1, channels, N], data: d };
}

const figures: { head: string; p50_ms: number; p95_ms: number; results?: number }[] = [];

function time<R>(label: string, fn: () => R, reps = 30): R {
  for (let i = 0; i < 3; i++) fn();
  const ts: number[] = [];
  let r = fn();
  for (let i = 0; i < reps; i++) {
    const t0 = process.hrtime.bigint();
    r = fn();
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ts.sort((a, b) => a - b);
  const p50 = ts[reps >> 1]!.toFixed(2);
  const p95 = ts[Math.floor(reps * 0.95)]!.toFixed(2);
  const n = Array.isArray(r) ? ` (${r.length} results)` : '';
  console.log(`${label.padEnd(62)} p50 ${p50} ms  p95 ${p95} ms${n}`);
  figures.push({
    head: label,
    p50_ms: Number(p50),
    p95_ms: Number(p95),
    ...(Array.isArray(r) ? { results: r.length } : {}),
  });
  return r;
}

const kernels = nativeOutputKernels();
const det = yolo(84, 80, 10);
time('YOLOv8 detect [1,84,8400], 10 objects', () =>
  decodeYoloDetections({ format: 'ultralytics', output: det }, T),
);
time('YOLOv8 detect [1,84,8400], 10 objects, addon yoloBestClasses', () =>
  decodeYoloDetections({ format: 'ultralytics', output: det }, T, {
    bestClasses: kernels.yoloBestClasses,
  }),
);
const dense = yolo(84, 80, 0);
for (let a = 0; a < N; a++) (dense.data as Float32Array)[4 * N + a] = 0.3 + rnd() * 0.6;
time(
  'YOLOv8 detect [1,84,8400], all 8400 above threshold',
  () => decodeYoloDetections({ format: 'ultralytics', output: dense }, T),
  5,
);
const q = Uint8Array.from(det.data as Float32Array, (v) => Math.min(255, Math.round(v * 100)));
const detQ: Tensor = { ...det, data: q, quantization: { scale: 0.01, zeroPoint: 0 } };
time('YOLOv8 detect [1,84,8400] uint8, dequantize + decode (boxes saturate)', () =>
  decodeYoloDetections({ format: 'ultralytics', output: detQ }, T),
);
const pose = yolo(56, 1, 10);
time('YOLOv8 pose [1,56,8400], 10 people', () => decodeYoloPose(pose, T));
const seg = yolo(116, 80, 10);
const protos: Tensor = {
  name: 'output1',
  dims: [1, 32, 160, 160],
  data: Float32Array.from({ length: 32 * 160 * 160 }, () => rnd() * 2 - 1),
};
const segs = time('YOLOv8 seg [1,116,8400] + protos, 10 instances at 1280x720', () =>
  decodeYoloSegmentation({ detections: { format: 'ultralytics', output: seg }, protos }, T),
);
time('buildInstanceIdImage, 10 instances, 1280x720', () =>
  buildInstanceIdImage(
    segs.map((s) => s.mask),
    1280,
    720,
  ),
);
const boxes = [0, 1, 2, 3].map((i) => ({ x1: 100 + i * 250, y1: 100, x2: 250 + i * 250, y2: 600 }));
const hm: Tensor = {
  name: 'heatmaps',
  dims: [4, 17, 64, 48],
  data: Float32Array.from({ length: 4 * 17 * 64 * 48 }, () => rnd()),
};
time('HRNet: plan 4 crops + decode [4,17,64,48]', () =>
  decodeHrnetHeatmaps(
    hm,
    boxes.map((b) => planHrnetCrop(b, 1280, 720).transform),
  ),
);
time('HRNet: plan 4 crops + decode [4,17,64,48], addon planePeaks', () =>
  decodeHrnetHeatmaps(
    hm,
    boxes.map((b) => planHrnetCrop(b, 1280, 720).transform),
    { planePeaks: kernels.planePeaks },
  ),
);
const T520 = letterboxTransform(1280, 720, 520, 520, 'stretch');
const logits: Tensor = {
  name: 'logits',
  dims: [1, 21, 520, 520],
  data: Float32Array.from({ length: 21 * 520 * 520 }, () => rnd()),
};
time('DeepLab logits [1,21,520,520] -> 1280x720 labels', () => decodeDeeplab(logits, T520), 10);
const labels: Tensor = {
  name: 'mask',
  dims: [1, 520, 520],
  data: Uint8Array.from({ length: 520 * 520 }, () => Math.floor(rnd() * 21)),
};
const map = time('DeepLab argmax map [1,520,520] uint8 -> 1280x720', () =>
  decodeDeeplab(labels, T520),
);
time('DeepLab argmax map [1,520,520] uint8 -> 1280x720, addon remapLabels', () =>
  decodeDeeplab(labels, T520, { remapLabels: kernels.remapLabels }),
);
const T640x480 = letterboxTransform(640, 480, 520, 520);
time('DeepLab argmax map [1,520,520] uint8 -> 640x480 (letterbox)', () =>
  decodeDeeplab(labels, T640x480),
);
time('DeepLab argmax map [1,520,520] uint8 -> 640x480 (letterbox), addon remapLabels', () =>
  decodeDeeplab(labels, T640x480, { remapLabels: kernels.remapLabels }),
);
time('colorizeLabelMap 1280x720 (VOC palette)', () => colorizeLabelMap(map));

const jsonAt = process.argv.indexOf('--json');
if (jsonAt >= 0 && process.argv[jsonAt + 1]) {
  writeBenchJson(process.argv[jsonAt + 1]!, figures);
}
