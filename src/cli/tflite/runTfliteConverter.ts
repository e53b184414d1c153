/**
 * Runs tools/models/convert_tflite.py in the tools venv (tf2onnx and TensorFlow's TFLite
 * interpreter are Python-only and never needed on a robot) and reads its report, validated here
 * because it crosses a process boundary.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { ImportRefusedError } from '../../model/deriveManifest';
import { packagePath } from '../../packageRoot';

export const CONVERT_SCRIPT = packagePath('tools', 'models', 'convert_tflite.py');

const INSTALL_HINT =
  "install it with 'bash scripts/bootstrap.sh 25-pytools' in the htp_perception checkout, or pass " +
  '--python a Python 3 with the packages of tools/requirements-tflite.txt and tools/requirements-models.txt';

/** The converter's Python or its packages are missing: the user installs them (exit 1). */
export class ConverterUnavailableError extends Error {
  override readonly name = 'ConverterUnavailableError';
}

/** The converter ran and failed: its last line of output says why (exit 1). */
export class ConverterFailedError extends Error {
  override readonly name = 'ConverterFailedError';
}

/** Non-finite numbers travel as null (JSON has no NaN) and come back as NaN: never within a bound. */
const finite = z
  .number()
  .nullable()
  .transform((v) => v ?? Number.NaN);

const tensor = z.object({ name: z.string(), dims: z.array(z.number().int()), dtype: z.string() });

const reportSchema = z.object({
  refused: z.string().optional(),
  tflite: z
    .object({ inputs: z.array(tensor), outputs: z.array(tensor), sha256: z.string() })
    .optional(),
  rewrites: z
    .array(
      z.object({
        op: z.string(),
        output: z.string(),
        onnx: z.string(),
        kernel: z.array(z.number().int()),
        stride: z.array(z.number().int()),
        padding: z.string(),
        channels: z.array(z.number().int()),
        maxAbsDiff: finite,
        maxAbsReference: finite,
      }),
    )
    .optional(),
  converter: z.string().optional(),
  convertSeconds: z.number().optional(),
  check: z
    .object({
      reference: z.string(),
      runtime: z.string(),
      input: z.string(),
      images: z.array(z.string()).min(1),
      msPerImage: z.object({ tflite: z.number(), onnx: z.number() }),
      outputs: z.array(
        z.object({
          name: z.string(),
          dims: z.array(z.number().int()),
          maxAbsDiff: finite,
          meanAbsDiff: finite,
          maxAbsReference: finite,
          min: finite,
          max: finite,
          worstImage: z.string(),
        }),
      ),
    })
    .optional(),
  checkSeconds: z.number().optional(),
});

type RawReport = z.infer<typeof reportSchema>;

/** A completed conversion: every part present (a refusal throws instead). */
export type ConversionReport = Required<Omit<RawReport, 'refused'>>;
export type RewriteCheck = ConversionReport['rewrites'][number];

export interface ConvertRequest {
  readonly python: string;
  readonly tflite: string;
  /** Where the ONNX file is written (the caller renames it into place). */
  readonly output: string;
  readonly photos: readonly string[];
  /**
   * A float input's normalization for the check's photos, value = (pixel - mean) / std with pixel
   * in 0..255 (the file's TFLite metadata); without it the photos go in as RGB 0..1.
   */
  readonly normalization?: {
    readonly mean: readonly number[];
    readonly std: readonly number[];
  };
}

function lastLine(text: string | null | undefined): string {
  const lines = (text ?? '').split('\n').filter((l) => l.trim().length > 0);
  return lines[lines.length - 1]?.trim() ?? '';
}

/**
 * Converts and checks; returns the converter's report. Throws ImportRefusedError (exit 2) when the
 * file cannot be imported (an unknown custom op, inputs the check cannot feed, ops tf2onnx cannot
 * convert), ConverterUnavailableError / ConverterFailedError (exit 1) otherwise.
 */
export function runTfliteConverter(req: ConvertRequest): ConversionReport {
  if (!fs.existsSync(CONVERT_SCRIPT)) {
    // Installed packages (colcon, robots) ship no tools/: convert where the checkout is.
    throw new ConverterUnavailableError(
      `${CONVERT_SCRIPT} missing: import TFLite files in a source checkout (after scripts/bootstrap.sh) and copy the model folder to the robot`,
    );
  }
  if (!fs.existsSync(req.python)) {
    throw new ConverterUnavailableError(
      `no Python for the TFLite converter at ${req.python}: ${INSTALL_HINT}`,
    );
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-tflite-'));
  const reportFile = path.join(scratch, 'report.json');
  try {
    // The scratch folder is also the working directory: TensorFlow and tf2onnx leave nothing behind.
    const n = req.normalization;
    const norm = n === undefined ? [] : ['--mean', n.mean.join(','), '--std', n.std.join(',')];
    const r = spawnSync(
      req.python,
      [
        CONVERT_SCRIPT,
        req.tflite,
        '--output',
        req.output,
        '--report',
        reportFile,
        ...norm,
        ...req.photos,
      ],
      { cwd: scratch, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (r.status === 4) {
      throw new ConverterUnavailableError(
        `${req.python} cannot run the converter (${lastLine(r.stderr)}): ${INSTALL_HINT}`,
      );
    }
    if ((r.status !== 0 && r.status !== 3) || !fs.existsSync(reportFile)) {
      const why = lastLine(r.stderr) || (r.error?.message ?? `exit ${String(r.status)}`);
      throw new ConverterFailedError(`convert_tflite.py failed on ${req.tflite}: ${why}`);
    }
    const parsed = reportSchema.safeParse(JSON.parse(fs.readFileSync(reportFile, 'utf8')));
    if (!parsed.success) {
      throw new ConverterFailedError(
        `convert_tflite.py wrote a report this version cannot read: ${parsed.error.message.split('\n')[0] ?? ''}`,
      );
    }
    const report = parsed.data;
    if (r.status === 3 || report.refused !== undefined) {
      throw new ImportRefusedError(
        `${req.tflite}: ${report.refused ?? 'refused by the converter'}`,
      );
    }
    const { tflite, rewrites, converter, convertSeconds, check, checkSeconds } = report;
    if (
      !tflite ||
      !rewrites ||
      !converter ||
      convertSeconds === undefined ||
      !check ||
      checkSeconds === undefined
    ) {
      throw new ConverterFailedError(
        `convert_tflite.py left its report on ${req.tflite} incomplete`,
      );
    }
    if (!fs.existsSync(req.output)) {
      throw new ConverterFailedError(`convert_tflite.py wrote no ONNX file for ${req.tflite}`);
    }
    return { tflite, rewrites, converter, convertSeconds, check, checkSeconds };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
