/** Generated test models and numpy/onnxruntime references for the engine tests (tools venv). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';
import { runToolsPython as python } from '../../support/toolsPython';
import { tempDir } from '../../support/tempDir';
import type { NativeLoadOptions } from '../../../src/engine/nativeAddon';

let modelDir: string | undefined;

/** Directory holding the tiny models of tools/engine/make_test_models.py (made once per process). */
export function testModels(): string {
  if (!modelDir) {
    const dir = tempDir('htp-engine-models-');
    python([repoPath('tools', 'engine', 'make_test_models.py'), dir]);
    modelDir = dir;
  }
  return modelDir;
}

export function model(name: string): string {
  return path.join(testModels(), name);
}

export interface RefSpec {
  width: number;
  height: number;
  channels: 1 | 3;
  layout: 'nchw' | 'nhwc';
  colorOrder: 'rgb' | 'bgr';
  resize: 'letterbox' | 'stretch';
  padValue: number;
  mean: number[];
  std: number[];
  type: 'float32' | 'uint8' | 'int8';
  qScale?: number;
  qZero?: number;
}

export interface RefCase {
  frame: { data: Uint8Array; width: number; height: number; step: number; encoding: string };
  roi?: { x: number; y: number; width: number; height: number };
  spec: RefSpec;
  /** Run the preprocessed tensor through this model with onnxruntime (Python) and return `output`. */
  model?: string;
  output?: string;
}

export interface RefResult {
  data: Buffer;
  dims: number[];
  transform: { scaleX: number; scaleY: number; padX: number; padY: number };
}

/** Runs every case through tools/engine/reference.py in one Python process. */
export function reference(cases: RefCase[]): RefResult[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-engine-ref-'));
  try {
    const req = cases.map((c, i) => {
      const frame = path.join(dir, `frame${i}.bin`);
      fs.writeFileSync(frame, c.frame.data);
      return {
        frame,
        width: c.frame.width,
        height: c.frame.height,
        step: c.frame.step,
        encoding: c.frame.encoding,
        roi: c.roi ?? null,
        spec: c.spec,
        model: c.model ?? null,
        output: c.output ?? null,
        out: path.join(dir, `out${i}.bin`),
      };
    });
    const res = JSON.parse(
      python([repoPath('tools', 'engine', 'reference.py')], JSON.stringify({ cases: req })),
    ) as {
      results: { transform: RefResult['transform']; dims: number[] }[];
    };
    return res.results.map((r, i) => ({
      data: fs.readFileSync(req[i]!.out),
      dims: r.dims,
      transform: r.transform,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Deterministic pseudo-random bytes (smooth enough that bilinear sampling matters). */
export function pattern(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = (s >>> 0) & 0xff;
  }
  return out;
}

/** conv.onnx ([1,3,32,48] float32) as toNativeOptions would describe it. */
export function convOptions(): NativeLoadOptions {
  return {
    modelPath: model('conv.onnx'),
    provider: 'cpu',
    threads: 1,
    sessionConfig: {},
    freeDimensions: {},
    input: {
      name: 'images',
      elementType: 1,
      width: 48,
      height: 32,
      channels: 3,
      layout: 'nchw',
      batch: 1,
    },
    preprocess: {
      colorOrder: 'rgb',
      resize: 'letterbox',
      padValue: 114,
      roundPixels: false,
      exactGrid: true,
      mean: [0, 0, 0],
      std: [255, 255, 255],
      quantization: null,
    },
    outputPeaks: null,
    qnn: null,
  };
}
