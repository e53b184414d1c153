/**
 * A stand-in for the detector on the HTP: the real model's input and output (INT8 QDQ, float input
 * `images` [1,3,640,640] behind a QuantizeLinear that the engine folds into its preprocessing, as
 * it does for the real INT8 detector; `output0` [1,6,8400] in Ultralytics' packed layout), but a
 * graph that computes almost nothing: it reads one input value (so ONNX Runtime cannot fold the
 * graph away and the input is really fed), multiplies it by zero and adds a fixed prediction
 * tensor holding five people. On the board the HTP runs YOLOv8 in ~3 ms on its own silicon; here
 * the stand-in makes inference cost ~0 on the CPU, so what `bench:e2e` measures on its rows is
 * what the node itself costs: intake, preprocessing, the uint8 feed, the engine hand-over, head,
 * tracking, message building and publishing, all doing their real work.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  int64Raw,
  ONNX_FLOAT,
  ONNX_INT64,
  ONNX_UINT8,
  modelProto,
  nodeProto,
  tensorProto,
  valueInfoProto,
  type Bytes,
} from '../../src/index';
import { STANDIN_PEOPLE, type StandinPerson } from './standinPeople';

export { STANDIN_PEOPLE, type StandinPerson };

const SIDE = 640;
const CANDIDATES = 8400;
/** cx, cy, w, h, then one score per class (Normal, Fall). */
const CHANNELS = 6;

function f32(values: readonly number[]): Bytes {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeFloatLE(v, i * 4));
  return [...b];
}

/** The fixed `output0`: channels-first [1,6,8400], the people in the first candidates, zeros after. */
export function standinPredictions(people: readonly StandinPerson[]): Float32Array {
  const out = new Float32Array(CHANNELS * CANDIDATES);
  people.forEach((p, i) => {
    out[0 * CANDIDATES + i] = p.cx;
    out[1 * CANDIDATES + i] = p.cy;
    out[2 * CANDIDATES + i] = p.w;
    out[3 * CANDIDATES + i] = p.h;
    out[4 * CANDIDATES + i] = p.score;
  });
  return out;
}

/** A stand-in graph: input `input` [1,3,H,W] behind a foldable QuantizeLinear, output = `fixed`. */
interface StandinGraph {
  readonly name: string;
  readonly input: string;
  readonly inputDims: readonly [number, 3, number, number];
  /** Scale and zero point of the input QuantizeLinear (the real INT8 model's, roughly). */
  readonly inputScale: number;
  readonly inputZero: number;
  readonly output: string;
  readonly outputDims: readonly number[];
  /** Float values of the output, or the uint8 levels of an argmax mask. */
  readonly fixed: Float32Array;
  readonly outputUint8?: boolean;
}

/**
 * The graph reads the input's first quantized value and turns it into a zero of the output's
 * rank, added to the fixed output. A float output: dequantized, times 0, Add. A uint8 output (the
 * argmax mask) stays uint8 all the way, as on the HTP, where the CPU only receives the mask: Min
 * with 0, then Max with the fixed mask (a float Add and a Cast over 520x520 values cost 0.2 ms of
 * CPU per frame that the HTP path does not).
 */
function standinGraphBytes(g: StandinGraph): Uint8Array {
  const rank = g.outputDims.length;
  const u8 = g.outputUint8 === true;
  // Batched (inputDims[0] = N): one value per image, broadcast over the one fixed output.
  const batch = g.inputDims[0];
  const fixedDims = [1, ...g.outputDims.slice(1)];
  return modelProto({
    name: g.name,
    producer: 'htp_perception bench:e2e',
    initializers: [
      tensorProto('in_s', ONNX_FLOAT, [], f32([g.inputScale])),
      tensorProto('in_z', ONNX_UINT8, [], [g.inputZero]),
      tensorProto('starts', ONNX_INT64, [4], int64Raw([0, 0, 0, 0])),
      tensorProto('ends', ONNX_INT64, [4], int64Raw([batch, 1, 1, 1])),
      u8 ? tensorProto('zero', ONNX_UINT8, [], [0]) : tensorProto('zero', ONNX_FLOAT, [], f32([0])),
      tensorProto(
        'ones',
        ONNX_INT64,
        [rank],
        int64Raw([batch, ...new Array<number>(rank - 1).fill(1)]),
      ),
      u8
        ? tensorProto('fixed', ONNX_UINT8, fixedDims, [...Uint8Array.from(g.fixed)])
        : tensorProto('fixed', ONNX_FLOAT, fixedDims, [...Buffer.from(g.fixed.buffer)]),
    ],
    nodes: [
      nodeProto('QuantizeLinear', 'q_in', [g.input, 'in_s', 'in_z'], ['xq']),
      nodeProto('Slice', 'one_value', ['xq', 'starts', 'ends'], ['pq']),
      ...(u8
        ? [nodeProto('Min', 'to_zero', ['pq', 'zero'], ['z4'])]
        : [
            nodeProto('DequantizeLinear', 'dq_one', ['pq', 'in_s', 'in_z'], ['p']),
            nodeProto('Mul', 'times_zero', ['p', 'zero'], ['z4']),
          ]),
      // [N,1,1,1] -> N then ones in the output's rank, so the result keeps the output's shape.
      nodeProto('Reshape', 'to_output_rank', ['z4', 'ones'], ['z']),
      u8
        ? nodeProto('Max', 'with_fixed', ['fixed', 'z'], [g.output])
        : nodeProto('Add', 'plus_fixed', ['fixed', 'z'], [g.output]),
    ],
    inputs: [valueInfoProto(g.input, ONNX_FLOAT, [...g.inputDims])],
    outputs: [valueInfoProto(g.output, u8 ? ONNX_UINT8 : ONNX_FLOAT, [...g.outputDims])],
  });
}

/** The detector's stand-in; with `batch` N, its batch-N form (N images per run, each the same people). */
export function htpStandinModelBytes(
  people: readonly StandinPerson[] = STANDIN_PEOPLE,
  batch = 1,
): Uint8Array {
  return standinGraphBytes({
    name: 'htp_standin_detector',
    input: 'images',
    inputDims: [batch, 3, SIDE, SIDE],
    inputScale: 1 / 255,
    inputZero: 0,
    output: 'output0',
    outputDims: [batch, CHANNELS, CANDIDATES],
    fixed: standinPredictions(people),
  });
}

/**
 * HRNet's stand-in: one person's heatmaps [1,17,64,48] with one peak per keypoint, laid out as a
 * standing figure, so the head's argmax and sub-pixel refinement do their real work. `NHWC` gives
 * the same maps channels-last, [1,64,48,17], as AI Hub's compiled HRNet returns them.
 */
export function htpStandinPoseBytes(layout: 'NCHW' | 'NHWC' = 'NCHW'): Uint8Array {
  const [K, H, W] = [17, 64, 48];
  const maps = new Float32Array(K * H * W);
  const at = (k: number, y: number, x: number): number =>
    layout === 'NCHW' ? k * H * W + y * W + x : (y * W + x) * K + k;
  for (let k = 0; k < K; k++) {
    const x = 24 + (k % 2 === 0 ? -1 : 1) * Math.min(10, k);
    const y = 6 + Math.round((k * 52) / K);
    maps[at(k, y, x)] = 0.9;
    maps[at(k, y, x + 1)] = 0.5;
  }
  return standinGraphBytes({
    name: 'htp_standin_pose',
    input: 'image',
    inputDims: [1, 3, 256, 192],
    inputScale: 0.0186,
    inputZero: 114,
    output: 'heatmaps',
    outputDims: layout === 'NCHW' ? [1, K, H, W] : [1, H, W, K],
    fixed: maps,
  });
}

/** DeepLabV3's stand-in with the argmax inside (AI Hub's layout): a person (VOC 15) in the middle. */
export function htpStandinSegmentationBytes(): Uint8Array {
  const side = 520;
  const mask = new Float32Array(side * side);
  for (let y = 120; y < 480; y++) mask.fill(15, y * side + 200, y * side + 320);
  return standinGraphBytes({
    name: 'htp_standin_segmentation',
    input: 'image',
    inputDims: [1, 3, side, side],
    inputScale: 0.0186,
    inputZero: 114,
    output: 'mask',
    outputDims: [1, side, side],
    fixed: mask,
    outputUint8: true,
  });
}

/** A stand-in's manifest: the real model's, pointing at the stand-in file for both precisions. */
export function writeStandinManifest(
  realManifest: string,
  dir: string,
  name: string,
  bytes: Uint8Array,
  outputs?: unknown,
  batch = 1,
): string {
  const manifest = JSON.parse(fs.readFileSync(realManifest, 'utf8')) as Record<string, unknown>;
  if (batch > 1) manifest.input = { ...(manifest.input as object), batch };
  fs.mkdirSync(dir, { recursive: true });
  const file = `${name}.int8.qdq.onnx`;
  fs.writeFileSync(path.join(dir, file), bytes);
  const out = {
    ...manifest,
    name,
    weights: 'untrained',
    files: { fp32: file, int8: file },
    ...(outputs ? { outputs } : {}),
    provenance: {
      registry: 'none',
      package: 'htp_perception',
      version: 'bench',
      license: 'Apache-2.0',
      description: `Built by bench:e2e (bench/src/htpStandinModel.ts) after ${path.basename(realManifest)}: its input and output, a fixed output, ~0 compute.`,
    },
    notes: 'Benchmark stand-in for the HTP path; never a real model.',
  };
  const manifestPath = path.join(dir, `${name}.manifest.json`);
  fs.writeFileSync(manifestPath, `${JSON.stringify(out, null, 2)}\n`);
  return manifestPath;
}

/**
 * Writes the detector's stand-in into `dir` (with `batch` N its batch-N form, named
 * htp-standin-bN, as `model import --batch N` would name a real copy); returns its manifest path.
 */
export function writeHtpStandin(detectorManifest: string, dir: string, batch = 1): string {
  return batch > 1
    ? writeStandinManifest(
        detectorManifest,
        dir,
        `htp-standin-b${batch}`,
        htpStandinModelBytes(STANDIN_PEOPLE, batch),
        undefined,
        batch,
      )
    : writeStandinManifest(detectorManifest, dir, 'htp-standin', htpStandinModelBytes());
}

/**
 * The three-pipeline container of bench:e2e, all stand-ins: the detector (tracking on), top-down
 * pose on its five people, segmentation with the argmax inside (AI Hub's layout). Returns the
 * ROS parameters file for perception_container; pipelines are named `<prefix>_det`, `_pose`, `_seg`.
 */
export function writeHtpStandinContainer(
  real: { readonly detector: string; readonly pose: string; readonly segmentation: string },
  dir: string,
  prefix: string,
): string {
  const det = writeStandinManifest(real.detector, dir, 'htp-standin', htpStandinModelBytes());
  const pose = writeStandinManifest(real.pose, dir, 'htp-standin-pose', htpStandinPoseBytes(), {
    format: 'heatmaps',
    heatmaps: { name: 'heatmaps', dims: [1, 17, 64, 48], dtype: 'float32', layout: 'NCHW' },
  });
  const seg = writeStandinManifest(
    real.segmentation,
    dir,
    'htp-standin-seg',
    htpStandinSegmentationBytes(),
    { format: 'semantic-argmax', mask: { name: 'mask', dims: [1, 520, 520], dtype: 'uint8' } },
  );
  const common = 'precision: int8, threads: 1';
  const yaml = [
    'perception_container:',
    `  ros__parameters: {pipelines: [${prefix}_det, ${prefix}_pose, ${prefix}_seg]}`,
    `${prefix}_det:`,
    `  ros__parameters: {model: "${det}", ${common}, tracking: true}`,
    `${prefix}_pose:`,
    `  ros__parameters: {model: "${pose}", ${common}, person_source: ${prefix}_det, person_classes: [Normal, Fall]}`,
    `${prefix}_seg:`,
    `  ros__parameters: {model: "${seg}", ${common}}`,
    '',
  ].join('\n');
  const file = path.join(dir, 'htp-standin-container.yaml');
  fs.writeFileSync(file, yaml);
  return file;
}
