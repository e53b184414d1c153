/**
 * `model import MODEL --batch N`: a batch-N copy of an imported model, its own manifest beside the
 * original's (`<name>-b<N>`), so one run of it serves N cameras. Every model file of the original
 * (fp32, int8, w8a16) is re-batched (rebatchOnnxModel.ts) and then proven: the copy run once on N
 * different frames must give, slot by slot, what the original gives on each frame alone, or
 * nothing is kept. HTP context binaries are not copied: a binary is compiled for one batch
 * (`model compile <name>-b<N>`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  loadModelManifest,
  type ModelManifest,
  type ModelManifestData,
} from '../../config/modelManifest';
import { resolveModelReference } from '../../config/perceptionConfig';
import { PRECISIONS, type Precision } from '../../core/precisions';
import { EngineError } from '../../core/engineError';
import { OnnxFormatError } from '../../model/readOnnxModel';
import { rebatchOnnxModel } from '../../model/rebatchOnnxModel';
import { withModelSha256 } from '../withModelSha256';
import { type CommandResult, requireModelName, UsageError } from '../cliErrors';
import { formatTable } from '../../util/formatTable';
import { type SlotAgreement, compareBatchedRuns } from './batchCopyCheck';

export interface BatchCopyOptions {
  /** A model name or manifest path. */
  readonly model: string;
  readonly batch: number;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
}

/** The copy's file for one of the original's: its name's prefix swapped, or `<name>.<p>.onnx`. */
function copyFileName(original: string, from: string, to: string, precision: Precision): string {
  const base = path.basename(original);
  return base.startsWith(`${from}.`)
    ? `${to}${base.slice(from.length)}`
    : `${to}.${precision}.onnx`;
}

interface Written {
  readonly precision: Precision;
  readonly file: string;
  readonly reshapes: number;
  readonly inputBatchWas: number | string;
}

export async function batchCopyCommand(o: BatchCopyOptions): Promise<CommandResult> {
  if (!Number.isInteger(o.batch) || o.batch < 2 || o.batch > 16) {
    throw new UsageError(`--batch ${o.batch}: give an integer from 2 to 16`);
  }
  const manifestPath = resolveModelReference(o.model);
  const original = loadModelManifest(manifestPath);
  if (original.input.batch !== undefined) {
    throw new UsageError(
      `${original.name} is already a batch-${original.input.batch} copy: copy its original instead`,
    );
  }
  const name = o.name ?? `${original.name}-b${o.batch}`;
  // A name derived from the manifest's is a file name too.
  requireModelName(name);
  const dir = path.dirname(original.manifestPath);
  const out = path.join(dir, `${name}.manifest.json`);
  const precisions = PRECISIONS.filter((p) => original.modelPaths[p] !== undefined);
  const targets = precisions.map((p) => ({
    precision: p,
    from: original.modelPaths[p]!,
    to: path.join(dir, copyFileName(original.modelPaths[p]!, original.name, name, p)),
  }));
  for (const f of [out, ...targets.map((t) => t.to)]) {
    if (fs.existsSync(f) && !o.force)
      throw new UsageError(`${f} exists: pass --force to overwrite it`);
  }
  for (const t of targets) {
    if (!fs.existsSync(t.from)) {
      throw new UsageError(
        `${original.manifestPath}: files.${t.precision}: ${t.from} does not exist`,
      );
    }
    if (/\.pte$/i.test(t.from)) {
      throw new UsageError(
        `${t.from}: an ExecuTorch program's batch is fixed when it is exported (export it again with batch=${o.batch})`,
      );
    }
  }

  const written: Written[] = [];
  const agreements: SlotAgreement[] = [];
  // The copies stay only once proven and recorded; any other way out removes them.
  let kept = false;
  try {
    for (const t of targets) {
      let copy;
      try {
        copy = rebatchOnnxModel(fs.readFileSync(t.from), o.batch);
      } catch (e) {
        if (e instanceof OnnxFormatError) throw new UsageError(`${t.from}: --batch: ${e.message}`);
        throw e;
      }
      fs.writeFileSync(t.to, copy.bytes);
      written.push({
        precision: t.precision,
        file: t.to,
        reshapes: copy.reshapes,
        inputBatchWas: copy.inputBatchWas,
      });
    }
    const copyManifest = batchManifest(original, name, o.batch, written);
    for (const w of written) {
      try {
        agreements.push(...(await compareBatchedRuns(original, w.precision, w.file, o.batch)));
      } catch (e) {
        // A re-batched graph that does not even run (a reshape whose sizes no longer add up).
        if (!(e instanceof EngineError)) throw e;
        process.stderr.write(
          `${original.name} cannot run batched: its batch-${o.batch} ${w.precision} copy does not run (${e.code}: ${e.message})\n`,
        );
        return 1;
      }
    }
    const failed = agreements.filter((a) => !a.agrees);
    if (failed.length > 0) {
      process.stderr.write(
        `${original.name} cannot run batched: the batch-${o.batch} copy does not compute what the original does per frame:\n` +
          failed
            .map(
              (a) =>
                `  ${a.precision} ${a.output} slot ${a.slot}: max |difference| ${a.maxDiff.toExponential(2)} (allowed ${a.allowed.toExponential(2)})`,
            )
            .join('\n') +
          '\n(a constant leading 1 that is not the batch, or an operation that mixes images)\n',
      );
      return 1;
    }
    fs.writeFileSync(out, `${JSON.stringify(copyManifest, null, 2)}\n`);
    kept = true;
  } finally {
    if (!kept) for (const w of written) fs.rmSync(w.file, { force: true });
  }
  printResult(o, out, name, written, agreements);
  return 0;
}

/** The original's manifest for the copy: its name, files and checksums, batch N, no binaries. */
function batchManifest(
  m: ModelManifest,
  name: string,
  batch: number,
  written: readonly Written[],
): ModelManifestData {
  const dir = path.dirname(m.manifestPath);
  const files: ModelManifestData['files'] = { fp32: '' };
  for (const w of written) files[w.precision] = path.basename(w.file);
  const base: ModelManifestData = {
    schemaVersion: m.schemaVersion,
    name,
    task: m.task,
    family: m.family,
    weights: m.weights,
    files,
    input: { ...m.input, batch },
    outputs: m.outputs,
    classNames: m.classNames,
    ...(m.keypoints ? { keypoints: m.keypoints } : {}),
    provenance: m.provenance,
    notes: `Batch-${batch} copy of ${m.name} ('htp-perception model import ${m.name} --batch ${batch}'): one run takes ${batch} frames.${m.notes ? ` ${m.notes}` : ''}`,
  };
  return written.reduce((acc, w) => withModelSha256(acc, dir, w.precision), base);
}

function printResult(
  o: BatchCopyOptions,
  out: string,
  name: string,
  written: readonly Written[],
  agreements: readonly SlotAgreement[],
): void {
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ manifest: out, name, batch: o.batch, files: written, agreements }, null, 2)}\n`,
    );
    return;
  }
  const worst = (p: Precision): SlotAgreement | undefined =>
    agreements
      .filter((a) => a.precision === p)
      .reduce<SlotAgreement | undefined>(
        (w, a) => (!w || a.maxDiff > w.maxDiff ? a : w),
        undefined,
      );
  const rows = written.map((w) => {
    const a = worst(w.precision);
    return {
      precision: w.precision,
      file: path.basename(w.file),
      'input batch': `${String(w.inputBatchWas)} -> ${o.batch}`,
      reshapes: w.reshapes,
      'max |diff|': a ? a.maxDiff.toExponential(2) : '-',
    };
  });
  process.stdout.write(
    `wrote ${out} (batch ${o.batch}); each slot checked against the original on its own frame (CPU):\n` +
      formatTable(rows) +
      `\nFor the HTP: htp-perception model compile ${name}\n`,
  );
}
