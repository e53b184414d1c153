/**
 * Command-line parsing for every `htp-perception` command: node:util parseArgs in strict mode,
 * with bad usage turned into one-line UsageErrors and --help into a HelpRequest.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { requireModelName, UsageError } from './cliErrors';
import { LICENCE_KINDS, type LicenceKind } from './licenceKind';
import { DEFAULT_MODELS_DIR, DOCTOR_HELP, type DoctorOptions } from './doctorCommand';
import { MODEL_COMPILE_HELP, MODEL_COMPILE_OPTIONS } from './modelCompileCommand';
import { MODEL_IMPORT_HELP, type ModelImportOptions } from './modelImportCommand';
import { MODEL_QUANTIZE_HELP, type ModelQuantizeOptions } from './modelQuantizeCommand';
import {
  type AgreementThresholds,
  THRESHOLD_FLAGS,
  type ThresholdName,
} from '../quantize/agreementThresholds';

/** Thrown to stop with a help text: stdout and 0 when asked for, stderr and 2 when not. */
export class HelpRequest extends Error {
  constructor(
    readonly text: string,
    readonly asked: boolean,
  ) {
    super('help');
  }
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: string[];
}

function parse(args: string[], options: OptionSpec, help: string): Parsed {
  let parsed: Parsed;
  try {
    const r = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    parsed = { values: r.values as Parsed['values'], positionals: r.positionals };
  } catch (e) {
    // parseArgs' messages already name the option; the hint points at the help.
    throw new UsageError(`${(e as Error).message.split('\n')[0] ?? ''} (see --help)`);
  }
  if (parsed.values.help === true) throw new HelpRequest(help, true);
  return parsed;
}

function stringOption(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A numeric flag's value, or a UsageError naming the flag and the accepted range. */
function numberOption(
  p: Parsed,
  flag: string,
  limits: { min: number; max?: number; integer?: boolean },
): number | undefined {
  const raw = stringOption(p.values[flag]);
  if (raw === undefined) return undefined;
  const v = Number(raw);
  const ok =
    raw.trim() !== '' &&
    Number.isFinite(v) &&
    v >= limits.min &&
    (limits.max === undefined || v <= limits.max) &&
    (!limits.integer || Number.isInteger(v));
  if (!ok) {
    const range = `${limits.integer ? 'an integer' : 'a number'} >= ${limits.min}${limits.max !== undefined ? ` and <= ${limits.max}` : ''}`;
    throw new UsageError(`--${flag} must be ${range}, got '${raw}'`);
  }
  return v;
}

export function parseDoctorArgs(rest: string[]): DoctorOptions {
  const p = parse(
    rest,
    {
      json: { type: 'boolean' },
      root: { type: 'string' },
      models: { type: 'string' },
      'no-offload': { type: 'boolean' },
    },
    DOCTOR_HELP,
  );
  if (p.positionals.length > 0) {
    throw new UsageError(`doctor takes no arguments, got '${p.positionals.join(' ')}'`);
  }
  const root = path.resolve(stringOption(p.values.root) ?? '/');
  if (!fs.existsSync(root)) throw new UsageError(`--root ${root}: no such folder`);
  const models = path.resolve(stringOption(p.values.models) ?? DEFAULT_MODELS_DIR);
  return {
    json: p.values.json === true,
    root,
    modelsDir: models,
    offload: p.values['no-offload'] !== true,
  };
}

export function parseModelImportArgs(rest: string[]): ModelImportOptions {
  const p = parse(
    rest,
    {
      name: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      images: { type: 'string' },
      python: { type: 'string' },
      size: { type: 'string' },
      'raw-head': { type: 'boolean' },
      batch: { type: 'string' },
    },
    MODEL_IMPORT_HELP,
  );
  const [file, ...extra] = p.positionals;
  if (file === undefined)
    throw new UsageError('model import needs FILE.onnx or FILE.tflite (see --help)');
  if (extra.length > 0)
    throw new UsageError(`model import takes one file, got '${extra.join(' ')}'`);
  const name = stringOption(p.values.name);
  if (name !== undefined) requireModelName(name);
  const images = stringOption(p.values.images);
  const python = stringOption(p.values.python);
  const sizeText = stringOption(p.values.size);
  const size = sizeText === undefined ? undefined : /^(\d{1,5})x(\d{1,5})$/i.exec(sizeText);
  if (size === null || (size !== undefined && (Number(size[1]) < 32 || Number(size[2]) < 32))) {
    throw new UsageError(
      `--size ${sizeText ?? ''}: give HxW in pixels, each at least 32 (e.g. 192x256)`,
    );
  }
  const batchText = stringOption(p.values.batch);
  const batch = batchText === undefined ? undefined : Number(batchText);
  if (batch !== undefined && !(Number.isInteger(batch) && batch >= 2 && batch <= 16)) {
    throw new UsageError(`--batch ${batchText ?? ''}: give an integer from 2 to 16`);
  }
  if (batch !== undefined && (images ?? python ?? sizeText ?? p.values['raw-head']) !== undefined) {
    throw new UsageError(
      '--batch copies an imported model: --raw-head, --images, --python and --size do not apply',
    );
  }
  return {
    file,
    ...(batch !== undefined ? { batch } : {}),
    ...(size !== undefined ? { size: [Number(size[1]), Number(size[2])] as const } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(images !== undefined ? { images } : {}),
    ...(python !== undefined ? { python } : {}),
    ...(p.values['raw-head'] === true ? { rawHead: true } : {}),
    force: p.values.force === true,
    json: p.values.json === true,
  };
}

/** model compile reads its own option values (src/cli/modelCompileCommand.ts). */
export function parseModelCompileArgs(rest: string[]): Parsed {
  return parse(rest, MODEL_COMPILE_OPTIONS, MODEL_COMPILE_HELP);
}

/** Twice the time N frames take at the interval, plus slack for discovery; at least a minute. */
function defaultCaptureTimeoutS(frames: number, intervalS: number): number {
  return Math.max(60, Math.ceil(2 * frames * intervalS + 30));
}

const FRACTION = { min: 0, max: 1 };

export function parseModelQuantizeArgs(rest: string[]): ModelQuantizeOptions {
  const thresholdOptions = Object.fromEntries(
    Object.values(THRESHOLD_FLAGS).map((t) => [t.flag, { type: 'string' as const }]),
  );
  const p = parse(
    rest,
    {
      images: { type: 'string' },
      holdout: { type: 'string' },
      topic: { type: 'string' },
      frames: { type: 'string' },
      compressed: { type: 'boolean' },
      interval: { type: 'string' },
      'capture-dir': { type: 'string' },
      'capture-timeout': { type: 'string' },
      json: { type: 'string' },
      python: { type: 'string' },
      threads: { type: 'string' },
      'validate-only': { type: 'boolean' },
      'cpu-int8-kernels': { type: 'string' },
      'allow-model-mismatch': { type: 'boolean' },
      precision: { type: 'string' },
      ...thresholdOptions,
    },
    MODEL_QUANTIZE_HELP,
  );
  const [model, ...extra] = p.positionals;
  if (model === undefined) throw new UsageError('model quantize needs NAME (see --help)');
  if (extra.length > 0)
    throw new UsageError(`model quantize takes one model, got '${extra.join(' ')}'`);
  const images = stringOption(p.values.images);
  const topic = stringOption(p.values.topic);
  const frames = numberOption(p, 'frames', { min: 1, max: 10_000, integer: true });
  const validateOnly = p.values['validate-only'] === true;
  const holdout = stringOption(p.values.holdout);
  if (validateOnly) {
    if (topic !== undefined) throw new UsageError('--validate-only takes no --topic');
    if (images === undefined && holdout === undefined)
      throw new UsageError('--validate-only needs --holdout DIR (or --images DIR to split)');
  } else if ((images === undefined) === (topic === undefined)) {
    throw new UsageError('model quantize needs either --images DIR or --topic T --frames N');
  }
  if (topic !== undefined && frames === undefined)
    throw new UsageError('--topic needs --frames N (how many frames to capture)');
  if (topic === undefined) {
    for (const f of ['frames', 'compressed', 'interval', 'capture-dir', 'capture-timeout']) {
      if (p.values[f] !== undefined) throw new UsageError(`--${f} goes with --topic`);
    }
  }
  const thresholds: Partial<Record<ThresholdName, number>> = {};
  for (const [name, t] of Object.entries(THRESHOLD_FLAGS) as [
    ThresholdName,
    (typeof THRESHOLD_FLAGS)[ThresholdName],
  ][]) {
    const v = numberOption(p, t.flag, name === 'maxKeypointPx' ? { min: 0 } : FRACTION);
    if (v !== undefined) thresholds[name] = v;
  }
  const kernels = stringOption(p.values['cpu-int8-kernels']) ?? 'auto';
  if (kernels !== 'auto' && kernels !== 'u8s8' && kernels !== 'u8u8')
    throw new UsageError(`--cpu-int8-kernels must be auto, u8s8 or u8u8, got '${kernels}'`);
  const precision = stringOption(p.values.precision) ?? 'int8';
  if (precision !== 'int8' && precision !== 'w8a16')
    throw new UsageError(`--precision must be int8 or w8a16, got '${precision}'`);
  const intervalS = numberOption(p, 'interval', { min: 0, max: 3600 }) ?? 0.5;
  const json = stringOption(p.values.json);
  const python = stringOption(p.values.python);
  const captureDir = stringOption(p.values['capture-dir']);
  return {
    model,
    precision,
    source:
      topic !== undefined
        ? {
            kind: 'topic',
            topic,
            frames: frames ?? 0,
            transport:
              p.values.compressed === true || /\/compressed$/.test(topic) ? 'compressed' : 'raw',
            intervalMs: intervalS * 1000,
            timeoutMs:
              (numberOption(p, 'capture-timeout', { min: 1, max: 86_400 }) ??
                defaultCaptureTimeoutS(frames ?? 0, intervalS)) * 1000,
            ...(captureDir !== undefined ? { directory: captureDir } : {}),
          }
        : images !== undefined
          ? { kind: 'images', directory: images }
          : { kind: 'none' },
    validateOnly,
    allowModelMismatch: p.values['allow-model-mismatch'] === true,
    ...(holdout !== undefined ? { holdout } : {}),
    ...(json !== undefined ? { json } : {}),
    ...(python !== undefined ? { python } : {}),
    cpuInt8Kernels: kernels,
    threads: numberOption(p, 'threads', { min: 0, max: 256, integer: true }) ?? 0,
    thresholds: thresholds as AgreementThresholds,
  };
}

/** model list [--licence KIND] [--json]: no positionals. */
export function parseModelListArgs(
  rest: string[],
  help: string,
): { json: boolean; licence?: LicenceKind } {
  const p = parse(rest, { json: { type: 'boolean' }, licence: { type: 'string' } }, help);
  if (p.positionals.length > 0) {
    throw new UsageError(`model list takes no arguments, got '${p.positionals.join(' ')}'`);
  }
  const licence = stringOption(p.values.licence);
  if (licence !== undefined && !(LICENCE_KINDS as readonly string[]).includes(licence)) {
    throw new UsageError(`--licence ${licence}: expected one of ${LICENCE_KINDS.join(', ')}`);
  }
  return {
    json: p.values.json === true,
    ...(licence !== undefined ? { licence: licence as LicenceKind } : {}),
  };
}
