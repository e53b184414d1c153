/**
 * The one door to the native addon: nothing else requires the .node file. Types the addon's
 * surface exactly as native/src/engine_session.h documents it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from './engineError';

export interface NativeIoInfo {
  name: string;
  dims: number[];
  symbolicDims: string[];
  type: string;
}

export interface NativeSessionInfo {
  inputs: NativeIoInfo[];
  outputs: NativeIoInfo[];
  inputName: string;
  preprocess: {
    width: number;
    height: number;
    channels: number;
    layout: 'nchw' | 'nhwc';
    type: string;
    quantization?: { scale: number; zeroPoint: number };
  };
  providers: {
    requested: string;
    assignmentKnown: boolean;
    note: string;
    counts: { provider: string; nodes: number }[];
    cpuNodes: { name: string; opType: string }[];
  };
  modelSource: 'onnx' | 'context_cache';
  contextCacheWritten: boolean;
}

export interface NativeOutput {
  name: string;
  dims: number[];
  type: string;
  data: ArrayBuffer;
}

export interface NativeRunResult {
  outputs: NativeOutput[];
  transform: {
    srcWidth: number;
    srcHeight: number;
    crop: { x: number; y: number; width: number; height: number };
    dstWidth: number;
    dstHeight: number;
    scaleX: number;
    scaleY: number;
    padX: number;
    padY: number;
  };
  timings: { queueMs: number; preprocessMs: number; inferenceMs: number; totalMs: number };
}

export interface NativeFrame {
  data: Uint8Array;
  width: number;
  height: number;
  step: number;
  encoding: string;
}

export interface NativeRoi {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface NativeSession {
  info(): NativeSessionInfo;
  run(
    frame: NativeFrame,
    roi: NativeRoi | null,
    runOptions: Record<string, string>,
  ): Promise<NativeRunResult>;
  setDynamicOptions(options: Record<string, string>): void;
  dispose(): void;
  readonly inFlight: number;
}

/** The flat, fully defaulted options object the addon reads (built by engineOptions). */
export interface NativeLoadOptions {
  modelPath: string;
  provider: 'cpu' | 'htp';
  threads: number;
  inputName: string;
  requireAccelerator: boolean;
  /** ONNX Runtime session config entries (key -> value), applied verbatim. */
  sessionConfig: Record<string, string>;
  preprocess: {
    width: number;
    height: number;
    layout: 'auto' | 'nchw' | 'nhwc';
    colorOrder: 'rgb' | 'bgr';
    resize: 'letterbox' | 'stretch';
    padValue: number;
    roundPixels: boolean;
    mean: [number, number, number];
    std: [number, number, number];
    inputQuantization?: { scale: number; zeroPoint: number };
  };
  htp?: {
    providerLibrary: string;
    contextCachePath: string;
    contextEmbed: boolean;
    providerOptions: Record<string, string>;
  };
}

export interface NativeAddon {
  loadSession(options: NativeLoadOptions): Promise<NativeSession>;
  readonly ortVersion: string;
  readonly ortApiVersion: number;
}

/** Repository root: this file is dist/src/engine/nativeAddon.js or src/engine/nativeAddon.ts. */
export const PACKAGE_ROOT = path.resolve(
  __dirname,
  '..',
  '..',
  ...(path.basename(path.resolve(__dirname, '..', '..')) === 'dist' ? ['..'] : []),
);

export const ADDON_PATH =
  process.env.HTP_ENGINE_ADDON ??
  path.join(PACKAGE_ROOT, 'build', 'engine', 'Release', 'htp_engine.node');

let cached: NativeAddon | undefined;

export function nativeAddon(): NativeAddon {
  if (cached) return cached;
  if (!fs.existsSync(ADDON_PATH)) {
    throw new EngineError(
      'ERR_ADDON_MISSING',
      `native engine addon ${ADDON_PATH} is not built: run 'bash scripts/bootstrap.sh 60-onnxruntime 65-addon'`,
    );
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cached = require(ADDON_PATH) as NativeAddon;
  } catch (err) {
    throw new EngineError(
      'ERR_ADDON_MISSING',
      `native engine addon ${ADDON_PATH} failed to load (${(err as Error).message}): ` +
        "rebuild it with 'bash scripts/bootstrap.sh 40-npm 60-onnxruntime 65-addon'",
    );
  }
  return cached;
}
