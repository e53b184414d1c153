/**
 * Derives a model manifest from what an ONNX file says about itself: Ultralytics exports through
 * their metadata (task, names, imgsz, kpt_shape), Qualcomm AI Hub exports through their tensor
 * names and shapes. Anything else is refused with what was found and which example manifest to
 * start from, because a guessed manifest would decode garbage without any error.
 */
import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import {
  checkManifestAgainstModel,
  type IntrospectedModel,
  type IntrospectedTensor,
} from '../config/checkManifestAgainstModel';
import {
  type ElementType,
  MANIFEST_ELEMENT_TYPES,
  type ModelManifest,
  type ModelManifestData,
  parseModelManifest,
} from '../config/modelManifest';
import { fixedDim } from '../families/exportTensor';
import { UNIT_NORMALIZATION } from '../families/manifestParts';
import type { AihubImport, ImportedInput, ModelFamily } from '../families/modelFamily';
import { MODEL_FAMILIES } from '../families/registry';
import type { OnnxModelInfo, OnnxValueInfo } from './readOnnxModel';

/** The file is ONNX but neither an Ultralytics nor an AI Hub export this package can describe. */
export class ImportRefusedError extends ConfigError {}

export type ExportKind = 'ultralytics' | 'aihub';

export interface DerivedManifest {
  readonly kind: ExportKind;
  readonly manifest: ModelManifestData;
  /** Assumptions a person should review (class names or normalization not stated by the file). */
  readonly assumptions: readonly string[];
}

function describeTensor(t: OnnxValueInfo): string {
  return `${t.name} ${t.elemType} [${t.dims.join(',')}]`;
}

/** "inputs: a [..]; outputs: b [..], c [..]" — what the refusal messages show. */
export function describeIo(info: OnnxModelInfo): string {
  const list = (ts: readonly OnnxValueInfo[]): string =>
    ts.map(describeTensor).join(', ') || 'none';
  return `inputs: ${list(info.inputs)}; outputs: ${list(info.outputs)}`;
}

/** The model's tensors as checkManifestAgainstModel wants them; unknown types never match. */
export function introspectedFromOnnx(info: OnnxModelInfo): IntrospectedModel {
  const map = (t: OnnxValueInfo): IntrospectedTensor => ({
    name: t.name,
    dims: t.dims,
    // A type no manifest can declare is passed through as a string the comparison rejects.
    type: (MANIFEST_ELEMENT_TYPES.find((m) => m === t.elemType) ?? t.elemType) as ElementType,
  });
  return { inputs: info.inputs.map(map), outputs: info.outputs.map(map) };
}

function refuse(file: string, info: OnnxModelInfo, reason: string, example: string): never {
  throw new ImportRefusedError(
    `${file}: ${reason} (${describeIo(info)}); describe it by hand starting from ${example}`,
  );
}

/** The family that reads Ultralytics exports by their metadata (YOLO's). */
function ultralyticsReader(): NonNullable<ModelFamily['ultralytics']> | undefined {
  for (const f of MODEL_FAMILIES) if ('ultralytics' in f) return f.ultralytics;
  return undefined;
}

const EXAMPLES = {
  aihub: 'models/examples/aihub-*.manifest.json (docs/models.md, "Describing your own model")',
  any: 'the closest of models/examples/*.manifest.json (docs/models.md, "Describing your own model")',
} as const;

function imageInput(
  file: string,
  info: OnnxModelInfo,
  example: string,
  size: [number, number] | undefined,
): ImportedInput {
  if (info.inputs.length !== 1) {
    refuse(file, info, `${info.inputs.length} inputs, one image input expected`, example);
  }
  const t = info.inputs[0] as OnnxValueInfo;
  if (t.dims.length !== 4) refuse(file, info, `input '${t.name}' is not rank 4`, example);
  if (t.elemType !== 'float32') {
    // A quantized input needs its scale and zero point, which live in the graph's Q nodes.
    refuse(
      file,
      info,
      `input '${t.name}' is ${t.elemType}; only float32 image inputs are imported`,
      example,
    );
  }
  const layout: 'NCHW' | 'NHWC' | undefined =
    t.dims[1] === 3 ? 'NCHW' : t.dims[3] === 3 ? 'NHWC' : undefined;
  if (layout === undefined) {
    refuse(file, info, `input '${t.name}' has no 3-channel axis at 1 (NCHW) or 3 (NHWC)`, example);
  }
  const [hAxis, wAxis] = layout === 'NCHW' ? [2, 3] : [1, 2];
  const height = fixedDim(t.dims[hAxis]) ?? size?.[0];
  const width = fixedDim(t.dims[wAxis]) ?? size?.[1];
  if (height === undefined || width === undefined) {
    refuse(file, info, `input '${t.name}' has a dynamic image size and no imgsz metadata`, example);
  }
  return { name: t.name, width, height, layout, dtype: 'float32' };
}

function userProvenance(description: string, meta: Readonly<Record<string, string>>) {
  return {
    registry: 'user' as const,
    package: 'user-provided export',
    version: meta.version ?? 'n/a',
    license: meta.license ?? 'as provided by the user',
    description,
  };
}

/** An Ultralytics export, read by the family that reads Ultralytics metadata. */
function fromUltralytics(file: string, info: OnnxModelInfo, name: string): DerivedManifest {
  const reader = ultralyticsReader();
  if (reader === undefined) {
    refuse(file, info, 'no model family reads Ultralytics exports', EXAMPLES.any);
  }
  const { data, assumptions } = reader.derive({
    file,
    model: info,
    name,
    imageInput: (size, example) => imageInput(file, info, example, size),
    refuse: (reason, example) => refuse(file, info, reason, example),
    provenance: (description) => userProvenance(description, info.metadata),
  });
  return {
    kind: 'ultralytics',
    manifest: parseModelManifest(data, file),
    assumptions: [...assumptions],
  };
}

/**
 * An AI Hub export: one image input (RGB 0..1, normalized inside the graph where the model needs
 * it), its outputs recognised by their names by the first family whose layout they are.
 */
function fromAihub(file: string, info: OnnxModelInfo, name: string): DerivedManifest {
  const ex = EXAMPLES.aihub;
  const input = imageInput(file, info, ex, undefined);
  const x: AihubImport = {
    model: info,
    input,
    base: { schemaVersion: 1, name, weights: 'pretrained', files: { fp32: path.basename(file) } },
    inputWith: (resize) => ({
      ...input,
      colorOrder: 'rgb',
      normalization: UNIT_NORMALIZATION,
      resize,
    }),
    provenance: (what) =>
      userProvenance(
        `Qualcomm AI Hub ${what}, ONNX asset; manifest derived from its tensor names by 'htp-perception model import'`,
        info.metadata,
      ),
    refuse: (reason) => refuse(file, info, reason, ex),
  };
  const layouts: string[] = [];
  for (const family of MODEL_FAMILIES) {
    if (!('aihub' in family)) continue;
    layouts.push(family.aihub.outputs);
    const found = family.aihub.read(x);
    if (found === undefined) continue;
    return {
      kind: 'aihub',
      manifest: parseModelManifest(found.data, file),
      assumptions: [...found.assumptions],
    };
  }
  return refuse(
    file,
    info,
    `input is named like an AI Hub export but the outputs are none of ${layouts.join(', ')}`,
    ex,
  );
}

export interface DeriveOptions {
  /** Manifest name; default: the file name without `.onnx`. */
  readonly name?: string;
  /** Accept AI Hub layouts (true for `model import`; in-memory loading takes Ultralytics only). */
  readonly allowAihub?: boolean;
}

/**
 * The manifest `file` (already read into `info`) would carry, checked against the file's own
 * inputs and outputs. Throws ImportRefusedError (a ConfigError) naming what was found.
 */
export function deriveManifest(
  file: string,
  info: OnnxModelInfo,
  options: DeriveOptions = {},
): DerivedManifest {
  const name = options.name ?? path.basename(file).replace(/\.onnx$/i, '');
  if (info.inputs.length !== 1) {
    refuse(file, info, `${info.inputs.length} inputs, one image input expected`, EXAMPLES.any);
  }
  const isUltralytics = info.metadata.task !== undefined && info.metadata.names !== undefined;
  const aihubInput = info.inputs.length === 1 && info.inputs[0]?.name === 'image';
  let derived: DerivedManifest;
  if (isUltralytics && !(aihubInput && options.allowAihub === true)) {
    derived = fromUltralytics(file, info, name);
  } else if (options.allowAihub === true && aihubInput) {
    derived = fromAihub(file, info, name);
  } else {
    refuse(
      file,
      info,
      options.allowAihub === true
        ? 'no Ultralytics metadata (task, names) and not an AI Hub layout (one input named image)'
        : "no Ultralytics metadata (task, names): run 'htp-perception model import' or write a manifest",
      info.inputs[0]?.name === 'images'
        ? (ultralyticsReader()?.example ?? EXAMPLES.any)
        : aihubInput
          ? EXAMPLES.aihub
          : EXAMPLES.any,
    );
  }
  const resolved: ModelManifest = {
    ...derived.manifest,
    manifestPath: file,
    modelPaths: { fp32: path.resolve(file) },
  };
  checkManifestAgainstModel(resolved, introspectedFromOnnx(info), file);
  return derived;
}
