/**
 * `htp-perception model import FILE.tflite`: read the file's TFLite metadata, convert to ONNX in
 * the tools venv, prove the conversion against the TFLite interpreter on photos (fed as the
 * metadata's normalization says), recognise the layout and write the ONNX and its manifest beside
 * the file. Nothing is written when the proof fails; a layout no manifest can
 * be derived for gets the ONNX and a draft manifest naming the fields to complete (exit 2).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withModelSha256 } from '../withModelSha256';
import {
  checkConversion,
  conversionBound,
  REWRITE_RELATIVE_BOUND,
} from '../../model/conversionCheck';
import { ImportRefusedError } from '../../model/deriveManifest';
import {
  deriveTfliteManifest,
  type TfliteLayoutKind,
  type TfliteProvenance,
} from '../../model/deriveTfliteManifest';
import { MODEL_FAMILIES } from '../../families/registry';
import { readOnnxModel } from '../../model/readOnnxModel';
import {
  readTfliteModel,
  TfliteFormatError,
  type TfliteModelInfo,
  tfliteMetadataText,
} from '../../model/readTfliteModel';
import type { ObservedRange } from '../../model/recognizeTfliteLayout';
import { DEFAULT_TOOLS_PYTHON } from '../../quantize/runQuantizer';
import { type CommandResult, UsageError } from '../cliErrors';
import { checkImages, checkTable, DEFAULT_CHECK_IMAGES, num } from '../conversionCheckText';
import { findPinnedFile } from './knownTfliteFiles';
import { type ConversionReport, runTfliteConverter } from './runTfliteConverter';

export interface TfliteImportOptions {
  readonly file: string;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
  /** A folder of photos for the conversion check (default the bootstrap photos). */
  readonly images?: string;
  /** The Python of the tools venv (default .cache/tools-venv/bin/python). */
  readonly python?: string;
}

/** The converted model differs from its TFLite original beyond the bound: exit 1, nothing written. */
export class ConversionCheckError extends Error {
  override readonly name = 'ConversionCheckError';
}

/**
 * Package, version and licence: a pinned file's from its list; a user's file's licence from its
 * TFLite metadata when it states one (the file's own word, printed for the user to confirm).
 */
function provenanceOf(
  file: string,
  report: ConversionReport,
  tflite: TfliteModelInfo,
): TfliteProvenance {
  const { sha256 } = report.tflite;
  const diffs = report.check.outputs.map((o) => `${o.name} ${num(o.maxAbsDiff)}`).join(', ');
  const md = tflite.metadata;
  const named =
    md === undefined || md.name === ''
      ? ''
      : `, "${tfliteMetadataText(md.name, 80)}"${md.version === '' ? '' : ` version ${tfliteMetadataText(md.version, 40)}`} by its TFLite metadata`;
  const converted =
    `converted to ONNX by 'htp-perception model import' (${report.converter}; max |ONNX - TFLite| per ` +
    `output on ${report.check.images.length} photos: ${diffs})`;
  const pinned = findPinnedFile(sha256);
  if (pinned !== undefined) {
    const where =
      pinned.registry === 'npm' ? `package/${pinned.file}` : `${pinned.file} in the sdist`;
    return {
      registry: pinned.registry,
      package: pinned.package,
      version: pinned.version,
      license: pinned.license,
      description: `${where} (sha256 ${sha256})${named}, ${converted}`,
    };
  }
  const license = md?.license.trim() ?? '';
  return {
    registry: 'user',
    package: 'user-provided TFLite file',
    version: 'n/a',
    license:
      license === ''
        ? 'as provided by the user'
        : `${tfliteMetadataText(license, 200)} (stated by the file's TFLite metadata)`,
    description: `${path.basename(file)} (sha256 ${sha256})${named}, ${converted}`,
  };
}

/** The file's own description; a damaged one is refused (exit 2) before anything runs. */
function readDescription(file: string): TfliteModelInfo {
  try {
    return readTfliteModel(file);
  } catch (e) {
    if (e instanceof TfliteFormatError) throw new ImportRefusedError(e.message);
    throw e;
  }
}

/**
 * The check's input normalization: the metadata's, for a float input whose metadata gives a
 * usable one (one or three finite values, std positive); else none (photos in as RGB 0..1).
 */
function checkNormalization(
  tflite: TfliteModelInfo,
): { mean: readonly number[]; std: readonly number[] } | undefined {
  const [input] = tflite.inputs;
  const n = tflite.metadata?.inputs[0]?.normalization;
  if (input?.elemType !== 'float32' || n === undefined || tflite.inputs.length !== 1) {
    return undefined;
  }
  const ok = (v: readonly number[], positive: boolean) =>
    (v.length === 1 || v.length === 3) &&
    v.every((x) => Number.isFinite(x) && (!positive || x > 0));
  return ok(n.mean, false) && ok(n.std, true) ? { mean: n.mean, std: n.std } : undefined;
}

/** How the import names what it recognised: a family's TFLite layout by its title. */
function kindLabel(kind: TfliteLayoutKind): string {
  if (kind === 'tflite-metadata-semantic') return 'semantic segmentation by its TFLite metadata';
  if (kind === 'aihub') return 'AI Hub layout';
  for (const f of MODEL_FAMILIES)
    if ('tflite' in f && f.tflite.kind === kind) return f.tflite.title;
  return kind;
}

export function tfliteImportCommand(o: TfliteImportOptions): CommandResult {
  const file = path.resolve(o.file);
  if (!fs.existsSync(file)) throw new UsageError(`${o.file}: no such file`);
  const name = o.name ?? path.basename(file).replace(/\.tflite$/i, '');
  const dir = path.dirname(file);
  const onnxFile = path.join(dir, `${name}.onnx`);
  const manifestFile = path.join(dir, `${name}.manifest.json`);
  const draftFile = path.join(dir, `${name}.manifest.draft.json`);
  for (const out of [onnxFile, manifestFile]) {
    if (fs.existsSync(out) && !o.force)
      throw new UsageError(`${out} exists: pass --force to overwrite it`);
  }
  const imagesDir = path.resolve(o.images ?? DEFAULT_CHECK_IMAGES);
  const photos = checkImages(imagesDir);
  // Written beside its destination and renamed only once proven: a failed import leaves nothing.
  const partial = path.join(dir, `.${name}.${process.pid}.partial.onnx`);
  const tflite = readDescription(file);
  const normalization = checkNormalization(tflite);
  try {
    const report = runTfliteConverter({
      // Absolute: the converter runs in a scratch folder, where a relative path would not resolve.
      python: o.python === undefined ? DEFAULT_TOOLS_PYTHON : path.resolve(o.python),
      tflite: file,
      output: partial,
      photos,
      ...(normalization === undefined ? {} : { normalization }),
    });
    const rewrites = report.rewrites.map((r) => {
      const bound = conversionBound(r.maxAbsReference, REWRITE_RELATIVE_BOUND);
      return { ...r, bound, ok: r.maxAbsDiff <= bound };
    });
    const check = checkConversion(report.check.outputs);
    const conversion = {
      converter: report.converter,
      convertSeconds: report.convertSeconds,
      reference: report.check.reference,
      runtime: report.check.runtime,
      input: report.check.input,
      images: report.check.images.length,
      imageFolder: imagesDir,
      msPerImage: report.check.msPerImage,
      outputs: check.outputs,
      ok: check.ok && rewrites.every((r) => r.ok),
    };
    const lines = [
      `converted ${path.basename(file)} with ${report.converter} in ${num(report.convertSeconds)} s`,
      ...rewrites.map(
        (r) =>
          `  rewrote ${r.op} '${r.output}' as ${r.onnx} (kernel ${r.kernel.join('x')}, stride ${r.stride.join('x')}, ${r.padding}, ${r.channels.join(' -> ')} channels): vs its definition in numpy max |diff| ${num(r.maxAbsDiff)} (bound ${num(r.bound)}) ${r.ok ? 'ok' : 'TOO FAR'}`,
      ),
      `conversion check: ${report.check.runtime} vs ${report.check.reference}, ${report.check.images.length} photos from ${imagesDir}${normalization === undefined ? '' : ` (${report.check.input}: the TFLite metadata's normalization)`}`,
      checkTable(check.outputs, 'tflite'),
    ];
    const bad = [
      ...rewrites
        .filter((r) => !r.ok)
        .map((r) => `${r.op} '${r.output}' rewrite ${num(r.maxAbsDiff)} > ${num(r.bound)}`),
      ...check.outputs
        .filter((c) => !c.ok)
        .map((c) => `${c.name} ${num(c.maxAbsDiff)} > ${num(c.bound)} (worst on ${c.worstImage})`),
    ];
    if (bad.length > 0) {
      process.stdout.write(
        o.json
          ? `${JSON.stringify({ file, written: false, conversion, rewrites }, null, 2)}\n`
          : `${lines.join('\n')}\n`,
      );
      throw new ConversionCheckError(
        `${file}: the converted model differs from the TFLite original beyond the bound: ${bad.join('; ')}; nothing written`,
      );
    }
    const ranges = new Map<string, ObservedRange>(
      report.check.outputs.map((c) => [c.name, { min: c.min, max: c.max }]),
    );
    const provenance = provenanceOf(file, report, tflite);
    const derived = deriveTfliteManifest({
      onnxFile,
      info: readOnnxModel(partial),
      name,
      provenance,
      ranges,
      tflite,
    });
    fs.renameSync(partial, onnxFile);
    const source = {
      file,
      sha256: report.tflite.sha256,
      registry: provenance.registry,
      package: provenance.package,
      version: provenance.version,
      license: provenance.license,
    };
    if (derived.kind === 'draft') {
      fs.writeFileSync(draftFile, `${JSON.stringify(derived.draft, null, 2)}\n`);
      process.stdout.write(
        o.json
          ? `${JSON.stringify({ onnx: onnxFile, manifest: null, draft: draftFile, kind: 'draft', missing: derived.missing, reasons: derived.reasons, source, conversion, rewrites }, null, 2)}\n`
          : `${[...lines, `wrote ${onnxFile}`, `wrote ${draftFile}`].join('\n')}\n`,
      );
      throw new ImportRefusedError(
        `${file}: converted and checked, but its layout is none this package knows (${derived.reasons.join('; ')}): complete ${derived.missing.join(', ')} in ${draftFile} and save it as ${manifestFile}`,
      );
    }
    // Hashed once renamed into place: the file the manifest names.
    const m = withModelSha256(derived.manifest, dir, 'fp32');
    fs.writeFileSync(manifestFile, `${JSON.stringify(m, null, 2)}\n`);
    if (o.json) {
      process.stdout.write(
        `${JSON.stringify({ manifest: manifestFile, onnx: onnxFile, kind: derived.kind, name: m.name, task: m.task, family: m.family, classes: m.classNames.length, assumptions: derived.assumptions, source, conversion, rewrites }, null, 2)}\n`,
      );
    } else {
      const from =
        provenance.registry === 'user'
          ? `a user-provided file (sha256 ${report.tflite.sha256.slice(0, 12)}…)`
          : `${provenance.registry} ${provenance.package} ${provenance.version}`;
      lines.push(
        `wrote ${onnxFile}`,
        `wrote ${manifestFile}`,
        `  ${kindLabel(derived.kind)}: ${m.task} / ${m.family}, input ${m.input.name} ${m.input.width}x${m.input.height} ${m.input.layout}, ${m.classNames.length} class(es), outputs ${m.outputs.format}; from ${from}`,
        `  licence: ${m.provenance.license}`,
        ...derived.assumptions.map((a) => `  assumed: ${a} (edit the manifest if wrong)`),
      );
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return 0;
  } finally {
    fs.rmSync(partial, { force: true });
  }
}
