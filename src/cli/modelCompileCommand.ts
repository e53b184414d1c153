import * as fs from 'node:fs';
import * as path from 'node:path';
import { findHtpSoc, HTP_SOCS } from '../config/htpSocs';
import { loadModelManifest, requireModelFiles } from '../config/modelManifest';
import { resolveModelReference } from '../config/perceptionConfig';
import type { CompileReport } from './compile/compileHtpContext';
import { recordHtpContext } from './compile/recordHtpContext';
import type { Precision } from '../pipeline/runtimeChoices';
import { runMarkedChild } from './qnnChildProcess';
import { verifyModelChecksum } from '../pipeline/verifyModelChecksum';
import { formatTable } from '../util/formatTable';
import { sha256File } from '../util/sha256File';
import { type CommandResult, UsageError } from './cliErrors';
import { WORKER_MARK, type WorkerRequest, type WorkerResult } from './modelCompileWorker';

const SOC_LIST = HTP_SOCS.map((s) => `${s.name} (htp_arch ${s.htpArch}, soc_model ${s.socModel})`);

export const MODEL_COMPILE_HELP = `usage: htp-perception model compile NAME [--soc qcs6490] [--precision int8|w8a16|fp32]
                                    [--batch N] [--image FILE] [--vtcm-mb N] [--force] [--json]

Compiles the model ahead of time for one SoC's HTP with the QNN provider (an ONNX Runtime EP
context model with the QNN context binary embedded), writes it beside the model as
<name>.<soc>.ctx.onnx (fp32: <name>.fp32.<soc>.ctx.onnx) and records it in the manifest
(files.htpContexts). Nodes with provider htp then load it instead of compiling at start.
Before recording, the binary is loaded back: it must report the same node placement and give
the same outputs on one frame as the uncompiled model (relative tolerance 1e-5; the HTP part
must match exactly). On x86-64 the QNN HTP backend is a simulator: expect seconds per run.

NAME is a model name under models/ (e.g. yolov8s-fall) or a manifest path; import a bare
.onnx first ('htp-perception model import').

options:
  --soc S          target SoC (default qcs6490); known: ${SOC_LIST.join(', ')}
  --precision P    int8 (default: the manifest's W8A8 QDQ file, what the HTP runs), w8a16 (its
                   files.w8a16) or fp32
  --batch N        compile NAME's batch-N copy (NAME-bN, made by 'model import NAME --batch N'):
                   its binary runs N frames at once, the HTP graph compiled for that batch
  --image FILE     the frame both runs see (default: a generated test pattern)
  --vtcm-mb N      HTP VTCM size in MB baked into the graph (default 0: the device maximum)
  --force          replace an existing context binary
  --allow-model-mismatch
                   compile a model file whose SHA-256 is not the manifest's (files.sha256);
                   without it such a file is refused (exit 2)
  --json           print the report as JSON
  -h, --help       this text

exit code: 0 compiled and verified, 1 compilation or verification failed, 2 bad usage or input`;

/** The options main.ts parses for this command. */
export const MODEL_COMPILE_OPTIONS = {
  soc: { type: 'string' },
  precision: { type: 'string' },
  image: { type: 'string' },
  'vtcm-mb': { type: 'string' },
  batch: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  'allow-model-mismatch': { type: 'boolean' },
} as const;

export type ModelCompileValues = Readonly<Record<string, string | boolean | undefined>>;

function str(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function resolveManifestPath(name: string): string {
  if (/\.onnx$/i.test(name)) {
    throw new UsageError(
      `${name}: compile takes a model name or manifest; run 'htp-perception model import ${name}' first`,
    );
  }
  const found = resolveModelReference(name);
  if (!fs.existsSync(found)) {
    throw new UsageError(`${name}: no such manifest, and no model of that name under models/`);
  }
  return found;
}

/** With --batch N, the name of NAME's batch-N copy, which must exist; else NAME. */
function batchCopyOf(name: string, batchText: string | undefined): string {
  if (batchText === undefined) return name;
  const batch = Number(batchText);
  if (!/^\d+$/.test(batchText) || batch < 2 || batch > 16)
    throw new UsageError(`--batch ${batchText}: expected an integer 2..16`);
  const original = loadModelManifest(resolveManifestPath(name));
  if (original.input.batch === batch) return name;
  const copy = path.join(
    path.dirname(original.manifestPath),
    `${original.name}-b${batch}.manifest.json`,
  );
  if (!fs.existsSync(copy)) {
    throw new UsageError(
      `${original.name} has no batch-${batch} copy (${copy}): make it with 'htp-perception model import ${name} --batch ${batch}'`,
    );
  }
  return copy;
}

function contextFileName(model: string, precision: Precision, soc: string): string {
  return precision === 'int8'
    ? `${model}.${soc}.ctx.onnx`
    : `${model}.${precision}.${soc}.ctx.onnx`;
}

function printReport(r: CompileReport, recorded: boolean): void {
  const side = (label: string, p: CompileReport['placement']['onnx'], ms: number) => ({
    model: label,
    'QNN nodes': p.qnnNodes,
    'CPU nodes': p.cpuNodes.length,
    'all on QNN': p.fullyAccelerated ? 'yes' : 'no',
    'load s': (ms / 1000).toFixed(2),
  });
  const lines = [
    `${r.model} (${r.precision}) for ${r.soc} (htp_arch ${r.htpArch}, soc_model ${r.socModel})`,
    formatTable([
      side('onnx (compiles)', r.placement.onnx, r.compileMs),
      side('context binary', r.placement.compiled, r.loadMs),
    ]),
    `(a context binary holds each QNN partition as one EPContext node)`,
  ];
  if (r.placement.onnx.cpuNodes.length > 0)
    lines.push(`CPU nodes: ${r.placement.onnx.cpuNodes.join(', ')}`);
  lines.push(
    `placement: ${r.samePlacement ? 'same' : 'DIFFERENT'}; outputs: ${r.outputs
      .map((o) => `${o.name} max |diff| ${o.maxAbsDiff} (bound ${o.bound.toExponential(1)})`)
      .join(', ')} -> ${r.outputsMatch ? 'match' : 'MISMATCH'}`,
    recorded
      ? `wrote ${r.output} (${(r.bytes / 1e6).toFixed(1)} MB), recorded in the manifest`
      : `not recorded: the compiled model does not behave like the original`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** A compile that failed inside the worker (ONNX Runtime or QNN refused, or the worker died). */
export class CompileFailedError extends Error {
  override readonly name = 'CompileFailedError';
}

/** Runs the compile in modelCompileWorker.js and returns its report (see that file for why). */
function runCompileWorker(req: WorkerRequest): CompileReport {
  const answer = runMarkedChild(
    path.join(__dirname, 'modelCompileWorker.js'),
    [JSON.stringify(req)],
    WORKER_MARK,
  );
  if (!answer.ok) throw new CompileFailedError(`the compile process died (${answer.death})`);
  const result = answer.value as WorkerResult;
  if (!result.ok) throw new CompileFailedError(`compile failed: ${result.message}`);
  return result.report;
}

export async function modelCompileCommand(
  values: ModelCompileValues,
  positionals: readonly string[],
): Promise<CommandResult> {
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('model compile needs NAME (see --help)');
  if (extra.length > 0)
    throw new UsageError(`model compile takes one model, got '${extra.join(' ')}'`);
  const socName = str(values.soc) ?? 'qcs6490';
  const soc = findHtpSoc(socName);
  if (!soc) throw new UsageError(`--soc ${socName}: unknown SoC; known: ${SOC_LIST.join(', ')}`);
  const precisionText = str(values.precision) ?? 'int8';
  if (precisionText !== 'int8' && precisionText !== 'fp32' && precisionText !== 'w8a16')
    throw new UsageError(`--precision ${precisionText}: expected int8, w8a16 or fp32`);
  const precision: Precision = precisionText;
  const vtcmText = str(values['vtcm-mb']) ?? '0';
  const vtcmMb = Number(vtcmText);
  if (!/^\d+$/.test(vtcmText) || vtcmMb > 64)
    throw new UsageError(`--vtcm-mb ${vtcmText}: expected an integer 0..64`);
  const image = str(values.image);
  if (image !== undefined && !fs.existsSync(image))
    throw new UsageError(`--image ${image}: no such file`);

  const manifest = loadModelManifest(resolveManifestPath(batchCopyOf(name, str(values.batch))));
  const source = manifest.modelPaths[precision];
  if (source === undefined) {
    throw new UsageError(
      `${manifest.manifestPath}: no files.${precision} to compile (quantize the model first: 'htp-perception model quantize ${name} --precision ${precision}', or pass --precision fp32)`,
    );
  }
  // Missing model files are the user's to fix (exit 2), found before any QNN work.
  requireModelFiles(manifest, precision);
  // The binary records this file's hash as its source: a changed file must not become trusted.
  verifyModelChecksum(manifest, precision, values['allow-model-mismatch'] === true);
  const dir = path.dirname(manifest.manifestPath);
  const fileName = contextFileName(manifest.name, precision, soc.name);
  const output = path.join(dir, fileName);
  if (fs.existsSync(output) && values.force !== true)
    throw new UsageError(`${output} exists: pass --force to replace it`);

  // Compiled beside the target, then renamed over it: an existing file is never written in
  // place (model folders may hold hard links) and a failed proof leaves the old one alone.
  const tmp = path.join(dir, `.${fileName}.${process.pid}.tmp.onnx`);
  let report: CompileReport;
  try {
    report = runCompileWorker({
      manifestPath: manifest.manifestPath,
      precision,
      soc: soc.name,
      output: tmp,
      vtcmMb,
      ...(image !== undefined ? { image: path.resolve(image) } : {}),
    });
    const ok = report.samePlacement && report.outputsMatch;
    if (ok) {
      fs.renameSync(tmp, output);
      recordHtpContext(manifest.manifestPath, {
        file: fileName,
        soc: soc.name,
        precision,
        htpArch: soc.htpArch,
        socModel: soc.socModel,
        sourceSha256: sha256File(source),
      });
    }
    report = { ...report, output: ok ? output : tmp };
    if (values.json === true) {
      process.stdout.write(
        `${JSON.stringify({ ...report, recorded: ok, manifest: manifest.manifestPath }, null, 2)}\n`,
      );
    } else {
      printReport(report, ok);
    }
    return ok ? 0 : 1;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
