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
  type Bytes,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  ONNX_UINT8,
  tensorProto,
  valueInfoProto,
} from '../model/onnxWriter';

const ONNX_INT64 = 7;
const SIDE = 640;
const CANDIDATES = 8400;
/** cx, cy, w, h, then one score per class (Normal, Fall). */
const CHANNELS = 6;

export interface StandinPerson {
  /** Box centre and size in the model's 640x640 input pixels. */
  readonly cx: number;
  readonly cy: number;
  readonly w: number;
  readonly h: number;
  readonly score: number;
}

/**
 * Five upright people side by side inside the letterboxed content of a 4:3 or 16:9 frame
 * (rows 80..560 of 640 for 640x480, 140..500 for 1280x720), apart enough that NMS keeps all five.
 */
export const STANDIN_PEOPLE: readonly StandinPerson[] = [0, 1, 2, 3, 4].map((i) => ({
  cx: 80 + i * 120,
  cy: 320,
  w: 80,
  h: 200,
  score: 0.9 - i * 0.05,
}));

function f32(values: readonly number[]): Bytes {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeFloatLE(v, i * 4));
  return [...b];
}

function i64(values: readonly number[]): Bytes {
  const b = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => b.writeBigInt64LE(BigInt(v), i * 8));
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

export function htpStandinModelBytes(
  people: readonly StandinPerson[] = STANDIN_PEOPLE,
): Uint8Array {
  return modelProto({
    name: 'htp_standin_detector',
    producer: 'htp_perception bench:e2e',
    initializers: [
      tensorProto('in_s', ONNX_FLOAT, [], f32([1 / 255])),
      tensorProto('in_z', ONNX_UINT8, [], [0]),
      tensorProto('starts', ONNX_INT64, [4], i64([0, 0, 0, 0])),
      tensorProto('ends', ONNX_INT64, [4], i64([1, 1, 1, 1])),
      tensorProto('zero', ONNX_FLOAT, [], f32([0])),
      tensorProto('rank3', ONNX_INT64, [3], i64([1, 1, 1])),
      tensorProto(
        'fixed',
        ONNX_FLOAT,
        [1, CHANNELS, CANDIDATES],
        [...Buffer.from(standinPredictions(people).buffer)],
      ),
    ],
    nodes: [
      nodeProto('QuantizeLinear', 'q_in', ['images', 'in_s', 'in_z'], ['xq']),
      nodeProto('Slice', 'one_value', ['xq', 'starts', 'ends'], ['pq']),
      nodeProto('DequantizeLinear', 'dq_one', ['pq', 'in_s', 'in_z'], ['p']),
      nodeProto('Mul', 'times_zero', ['p', 'zero'], ['z4']),
      // [1,1,1,1] -> [1,1,1], so the sum broadcasts to the output's own rank.
      nodeProto('Reshape', 'to_rank3', ['z4', 'rank3'], ['z']),
      nodeProto('Add', 'plus_people', ['fixed', 'z'], ['output0']),
    ],
    inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, SIDE, SIDE])],
    outputs: [valueInfoProto('output0', ONNX_FLOAT, [1, CHANNELS, CANDIDATES])],
  });
}

/**
 * Writes the stand-in beside a manifest derived from the real detector's (same input, output,
 * classes; its QDQ file is the stand-in for both precisions) into `dir`; returns the manifest path.
 */
export function writeHtpStandin(detectorManifest: string, dir: string): string {
  const manifest = JSON.parse(fs.readFileSync(detectorManifest, 'utf8')) as Record<string, unknown>;
  fs.mkdirSync(dir, { recursive: true });
  const file = 'htp-standin.int8.qdq.onnx';
  fs.writeFileSync(path.join(dir, file), htpStandinModelBytes());
  const out = {
    ...manifest,
    name: 'htp-standin',
    weights: 'untrained',
    files: { fp32: file, int8: file },
    provenance: {
      registry: 'none',
      package: 'htp_perception',
      version: 'bench',
      license: 'Apache-2.0',
      description:
        'Built by bench:e2e (src/bench/htpStandinModel.ts): the detector input/output, a fixed output of five people, ~0 compute.',
    },
    notes: 'Benchmark stand-in for the HTP path; never a real model.',
  };
  const manifestPath = path.join(dir, 'htp-standin.manifest.json');
  fs.writeFileSync(manifestPath, `${JSON.stringify(out, null, 2)}\n`);
  return manifestPath;
}
