import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CliRun, runCli } from './cliRun';
import { tempDir } from './tempDir';
import { repoPath } from './paths';

/** The bootstrap's calibration and held-out photos: the recipe scripts/setup/70-models.sh uses. */
export const CALIBRATION_DIR = repoPath('.cache', 'photos');
export const HOLDOUT_DIR = repoPath('.cache', 'photos-holdout');

export interface QuantizedFall {
  /** A folder of its own holding only a link to the bootstrap's FP32 export, then what the commands wrote. */
  readonly dir: string;
  readonly manifest: string;
  /** `model quantize`'s JSON report. */
  readonly json: string;
  readonly imported: CliRun;
  readonly quantized: CliRun;
}

let shared: QuantizedFall | undefined;

/**
 * yolov8s-fall taken the user's way, `model import` then `model quantize` (the bootstrap's recipe,
 * `--min-match-rate 0.5`, a JSON report), done once per test run: quantizing it is the slowest step
 * of the CLI tests, and both the quantize tests (the command's report and files) and the compile
 * tests (compile what it wrote) read the same result. Nothing here asserts: each test checks the
 * runs it relies on.
 */
export function quantizedFall(): QuantizedFall {
  if (shared) return shared;
  const dir = tempDir('htp-fall-int8-');
  const onnx = path.join(dir, 'yolov8s-fall.onnx');
  fs.symlinkSync(repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'), onnx);
  const manifest = path.join(dir, 'yolov8s-fall.manifest.json');
  const json = path.join(dir, 'quantize-report.json');
  const imported = runCli(['model', 'import', onnx], { timeoutMs: 60_000 });
  const quantized = runCli(
    [
      'model',
      'quantize',
      manifest,
      '--images',
      CALIBRATION_DIR,
      '--holdout',
      HOLDOUT_DIR,
      '--json',
      json,
      '--min-match-rate',
      '0.5',
    ],
    { timeoutMs: 600_000 },
  );
  shared = { dir, manifest, json, imported, quantized };
  return shared;
}
