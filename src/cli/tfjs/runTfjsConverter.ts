/**
 * Runs tools/models/convert_tfjs.py in the tools venv (tf2onnx's tfjs reader and TensorFlow's op
 * definitions are Python-only; TensorFlow.js, the check's reference, runs in this Node from
 * tools/tfjs) and reads its report, validated here because it crosses a process boundary.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { ImportRefusedError } from '../../model/deriveManifest';
import { packagePath } from '../../packageRoot';
import type { TfjsCheckInput } from '../../families/modelFamily';
import { ConverterFailedError, ConverterUnavailableError } from '../tflite/runTfliteConverter';

export const TFJS_CONVERT_SCRIPT = packagePath('tools', 'models', 'convert_tfjs.py');
export const TFJS_REFERENCE = packagePath('tools', 'tfjs', 'reference.js');

const INSTALL_HINT =
  "install them with 'bash scripts/bootstrap.sh 25-pytools 79-tfjs-models' in the htp_perception checkout " +
  '(the tools venv with tf2onnx and TensorFlow, and TensorFlow.js in tools/tfjs/node_modules)';

const finite = z
  .number()
  .nullable()
  .transform((v) => v ?? Number.NaN);

const reportSchema = z.object({
  refused: z.string().optional(),
  source: z
    .object({
      sha256: z.string(),
      shards: z.array(z.object({ path: z.string(), sha256: z.string() })),
    })
    .optional(),
  filledDefaults: z.record(z.string(), z.number()).optional(),
  converter: z.string().optional(),
  convertSeconds: z.number().optional(),
  onnxNodes: z.number().optional(),
  folded: z
    .object({ nodesBefore: z.number(), nodesAfter: z.number(), infPadsIntoMaxPool: z.number() })
    .optional(),
  input: z
    .object({
      name: z.string(),
      dims: z.array(z.number().int()),
      dtype: z.string(),
      layout: z.enum(['NCHW', 'NHWC']),
      dynamic: z.boolean(),
      original: z.object({ name: z.string(), dtype: z.string() }),
    })
    .optional(),
  check: z
    .object({
      reference: z.string(),
      runtime: z.string(),
      input: z.string(),
      images: z.array(z.string()).min(1),
      msPerImage: z.object({ reference: z.number(), onnx: z.number() }),
      outputs: z.array(
        z.object({
          name: z.string(),
          tfjs: z.string(),
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
export type TfjsConversionReport = Required<Omit<RawReport, 'refused'>>;

export interface TfjsConvertRequest {
  readonly python: string;
  readonly modelJson: string;
  readonly output: string;
  readonly photos: readonly string[];
  /** A dynamic input's height and width, chosen at import. */
  readonly size?: readonly [number, number];
  readonly checkInput?: TfjsCheckInput;
}

function lastLine(text: string | null | undefined): string {
  const lines = (text ?? '').split('\n').filter((l) => l.trim().length > 0);
  return lines[lines.length - 1]?.trim() ?? '';
}

export function runTfjsConverter(req: TfjsConvertRequest): TfjsConversionReport {
  for (const f of [TFJS_CONVERT_SCRIPT, TFJS_REFERENCE]) {
    if (!fs.existsSync(f)) {
      throw new ConverterUnavailableError(
        `${f} missing: import TensorFlow.js models in a source checkout (after scripts/bootstrap.sh) and copy the model folder to the robot`,
      );
    }
  }
  if (!fs.existsSync(packagePath('tools', 'tfjs', 'node_modules', '@tensorflow', 'tfjs-core'))) {
    throw new ConverterUnavailableError(
      `TensorFlow.js, the conversion check's reference, is not installed in tools/tfjs: ${INSTALL_HINT}`,
    );
  }
  if (!fs.existsSync(req.python)) {
    throw new ConverterUnavailableError(
      `no Python for the converter at ${req.python}: ${INSTALL_HINT}`,
    );
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-tfjs-'));
  const reportFile = path.join(scratch, 'report.json');
  try {
    const c = req.checkInput;
    const args = [
      TFJS_CONVERT_SCRIPT,
      req.modelJson,
      '--output',
      req.output,
      '--report',
      reportFile,
      '--node',
      process.execPath,
      '--reference',
      TFJS_REFERENCE,
      ...(req.size === undefined ? [] : ['--size', `${req.size[0]}x${req.size[1]}`]),
      ...(c === undefined ? [] : ['--mean', c.mean.join(','), '--std', c.std.join(',')]),
      ...(c?.bgr === true ? ['--bgr'] : []),
      ...req.photos,
    ];
    const r = spawnSync(req.python, args, {
      cwd: scratch,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status === 4) {
      throw new ConverterUnavailableError(
        `${req.python} cannot run the converter (${lastLine(r.stderr)}): ${INSTALL_HINT}`,
      );
    }
    if ((r.status !== 0 && r.status !== 3) || !fs.existsSync(reportFile)) {
      const why = lastLine(r.stderr) || (r.error?.message ?? `exit ${String(r.status)}`);
      throw new ConverterFailedError(`convert_tfjs.py failed on ${req.modelJson}: ${why}`);
    }
    const parsed = reportSchema.safeParse(JSON.parse(fs.readFileSync(reportFile, 'utf8')));
    if (!parsed.success) {
      throw new ConverterFailedError(
        `convert_tfjs.py wrote a report this version cannot read: ${parsed.error.message.split('\n')[0] ?? ''}`,
      );
    }
    const report = parsed.data;
    if (r.status === 3 || report.refused !== undefined) {
      throw new ImportRefusedError(
        `${req.modelJson}: ${report.refused ?? 'refused by the converter'}`,
      );
    }
    const {
      source,
      filledDefaults,
      converter,
      convertSeconds,
      onnxNodes,
      folded,
      input,
      check,
      checkSeconds,
    } = report;
    if (
      !source ||
      !filledDefaults ||
      !converter ||
      convertSeconds === undefined ||
      onnxNodes === undefined ||
      !folded ||
      !input ||
      !check ||
      checkSeconds === undefined ||
      !fs.existsSync(req.output)
    ) {
      throw new ConverterFailedError(
        `convert_tfjs.py left its work on ${req.modelJson} incomplete`,
      );
    }
    return {
      source,
      filledDefaults,
      converter,
      convertSeconds,
      onnxNodes,
      folded,
      input,
      check,
      checkSeconds,
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
