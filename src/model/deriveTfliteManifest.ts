/**
 * The manifest of an ONNX model converted from TFLite (`htp-perception model import FILE.tflite`):
 * MediaPipe's BlazePose landmark and selfie segmentation layouts are recognised by their tensors;
 * a semantic segmentation model by its TFLite metadata (labels, normalization, image input); an
 * AI Hub layout by its tensor names, as for an ONNX export; anything else gets a draft with what
 * the file says (input, outputs, provenance, the metadata's labels and normalization) and the
 * fields a person must fill in.
 */
import * as path from 'node:path';
import { checkManifestAgainstModel } from '../config/checkManifestAgainstModel';
import { type ExportTensor, specOf } from '../families/exportTensor';
import { UNIT_NORMALIZATION } from '../families/manifestParts';
import { FAMILY_NAMES, MODEL_FAMILIES, type TfliteFamilyKind } from '../families/registry';
import {
  type ModelManifest,
  type ModelManifestData,
  parseModelManifest,
} from '../config/modelManifest';
import { deriveManifest, ImportRefusedError, introspectedFromOnnx } from './deriveManifest';
import type { OnnxModelInfo } from './readOnnxModel';
import { matchTfliteLayout, type ObservedRange } from './recognizeTfliteLayout';
import { recognizeTfliteMetadata } from './recognizeTfliteMetadata';
import {
  type TfliteModelInfo,
  TfliteFormatError,
  tfliteMetadataText,
  tfliteTensorLabels,
} from './readTfliteModel';

/** Where the .tflite came from: a pinned package file, or the user's. */
export interface TfliteProvenance {
  readonly registry: 'npm' | 'pypi' | 'user';
  readonly package: string;
  readonly version: string;
  readonly license: string;
  readonly description: string;
}

export interface TfliteManifestRequest {
  /** The converted ONNX file, already at the path the manifest will name (files.fp32). */
  readonly onnxFile: string;
  readonly info: OnnxModelInfo;
  readonly name: string;
  readonly provenance: TfliteProvenance;
  /** Output value ranges from the conversion check (a probability stays in 0..1). */
  readonly ranges: ReadonlyMap<string, ObservedRange>;
  /** What the .tflite file says of itself (readTfliteModel): its TFLite metadata, if any. */
  readonly tflite?: TfliteModelInfo;
}

/** A family's layout by tensors (MediaPipe's), a semantic model by metadata, an AI Hub layout. */
export type TfliteLayoutKind = TfliteFamilyKind | 'tflite-metadata-semantic' | 'aihub';

export type TfliteManifest =
  | {
      readonly kind: TfliteLayoutKind;
      readonly manifest: ModelManifestData;
      /** What a person should review (printed as "assumed: ..."). */
      readonly assumptions: readonly string[];
    }
  | {
      readonly kind: 'draft';
      /** Manifest-shaped, with placeholders where the file does not say: not valid until edited. */
      readonly draft: Readonly<Record<string, unknown>>;
      /** The fields the person must complete, as manifest paths. */
      readonly missing: readonly string[];
      /** Why no known layout fits. */
      readonly reasons: readonly string[];
    };

/** The output formats a draft offers: every family's. */
const DRAFT_FORMATS = MODEL_FAMILIES.flatMap((f) => f.formats.map((o) => o.format));

function base(req: TfliteManifestRequest) {
  return {
    schemaVersion: 1,
    name: req.name,
    weights: 'pretrained',
    files: { fp32: path.basename(req.onnxFile) },
    provenance: { ...req.provenance },
  };
}

function nhwcInput(t: ExportTensor, resize: object) {
  const d = t.dims;
  return {
    name: t.name,
    width: d[2],
    height: d[1],
    layout: 'NHWC',
    colorOrder: 'rgb',
    dtype: 'float32',
    normalization: UNIT_NORMALIZATION,
    resize,
  };
}

/** Checks the derived manifest against the converted file, as an ONNX import does. */
function checked(req: TfliteManifestRequest, data: unknown): ModelManifestData {
  const manifest = parseModelManifest(data, req.onnxFile);
  const resolved: ModelManifest = {
    ...manifest,
    manifestPath: req.onnxFile,
    modelPaths: { fp32: path.resolve(req.onnxFile) },
  };
  checkManifestAgainstModel(resolved, introspectedFromOnnx(req.info), req.onnxFile);
  return manifest;
}

/**
 * What a draft can take from the metadata of a file no layout fits: the first output's labels and
 * the input's normalization (in the metadata's own units), each only when usable as they stand.
 */
function statedByMetadata(tflite: TfliteModelInfo | undefined): {
  labels?: string[];
  normalization?: { scale: number; mean: number[]; std: number[] };
  note: string;
} {
  const md = tflite?.metadata;
  if (tflite === undefined || md === undefined) return { note: '' };
  const said: string[] = [];
  let labels: string[] | undefined;
  for (const o of md.outputs) {
    try {
      const l = tfliteTensorLabels(tflite, o);
      if (l !== undefined && l.labels.length > 0 && l.labels.every((x) => x.trim() !== '')) {
        labels = [...l.labels];
        said.push(`classNames from its packed ${l.file}`);
        break;
      }
    } catch (e) {
      if (!(e instanceof TfliteFormatError)) throw e;
    }
  }
  const n = md.inputs[0]?.normalization;
  const three = (v: readonly number[] | undefined) =>
    v === undefined
      ? undefined
      : v.length === 1
        ? [v[0], v[0], v[0]]
        : v.length === 3
          ? [...v]
          : undefined;
  const mean = three(n?.mean);
  const std = three(n?.std);
  const normalization =
    mean !== undefined &&
    std !== undefined &&
    mean.every((v) => v !== undefined && Number.isFinite(v)) &&
    std.every((v) => v !== undefined && v > 0 && Number.isFinite(v))
      ? { scale: 1, mean: mean as number[], std: std as number[] }
      : undefined;
  if (normalization !== undefined)
    said.push("input.normalization from the input's NormalizationOptions");
  const summary = metadataSummary(tflite);
  const note = said.length === 0 ? '' : `From the file's TFLite metadata: ${said.join('; ')}. `;
  return {
    ...(labels === undefined ? {} : { labels }),
    ...(normalization === undefined ? {} : { normalization }),
    note: `${note}${summary === '' ? '' : `${summary} `}`,
  };
}

/** The fields a draft leaves to the person, by what the file cannot say. */
function draftFor(req: TfliteManifestRequest, reasons: readonly string[]): TfliteManifest {
  const [t] = req.info.inputs;
  const d = t?.dims ?? [];
  const nhwc = d[3] === 3;
  const stated = statedByMetadata(req.tflite);
  const missing = ['task', 'family', 'outputs', ...(stated.labels ? [] : ['classNames'])];
  if (t !== undefined && t.elemType !== 'float32') missing.push('input.quantization');
  const draft = {
    ...base(req),
    task: '<detect | pose | segment | semantic>',
    family: `<${FAMILY_NAMES.join(' | ')}>`,
    input: {
      name: t?.name ?? '<input>',
      width: nhwc ? d[2] : d[3],
      height: nhwc ? d[1] : d[2],
      layout: nhwc ? 'NHWC' : 'NCHW',
      colorOrder: 'rgb',
      dtype: t?.elemType ?? 'float32',
      normalization: stated.normalization ?? UNIT_NORMALIZATION,
      resize: { mode: 'stretch' },
    },
    outputs: {
      format: `<${DRAFT_FORMATS.join(' | ')}>`,
      '<the model outputs, to place under the format fields (docs/models.md, Manifest API)>':
        req.info.outputs.map(specOf),
    },
    classNames: stated.labels ?? ['<class 0>', '<class 1>'],
    notes:
      `${stated.note}Draft written by htp-perception model import: input as the conversion check fed it (RGB, ` +
      `${stated.normalization === undefined ? '0..1' : "the metadata's normalization"}, stretched). Not recognised: ${reasons.join('; ')}.`,
  };
  return { kind: 'draft', draft, missing, reasons };
}

/**
 * The manifest of the converted model. MediaPipe layouts and AI Hub layouts get a checked manifest;
 * anything else a draft naming the fields to fill in. Throws ManifestMismatchError when a
 * recognised layout's manifest does not match the file (a bug here, not the user's).
 */
export function deriveTfliteManifest(req: TfliteManifestRequest): TfliteManifest {
  const { info } = req;
  const match = matchTfliteLayout(info.inputs, info.outputs, req.ranges);
  const byShapes =
    req.provenance.registry === 'user'
      ? [
          'recognised by its tensor shapes, not by a known file: edit the manifest if this is another network',
        ]
      : [];
  if ('layout' in match) {
    const data = match.recognizer.manifest(match.layout, { base: base(req), nhwcInput });
    return { kind: match.kind, manifest: checked(req, data), assumptions: byShapes };
  }
  const bySemantics = MODEL_FAMILIES.find((f) => 'fromTfliteMetadata' in f);
  const fromMetadata =
    req.tflite === undefined
      ? 'the file has no TFLite metadata'
      : bySemantics === undefined || !('fromTfliteMetadata' in bySemantics)
        ? 'no model family reads semantic models by their metadata'
        : recognizeTfliteMetadata(req.tflite, info.inputs, info.outputs);
  if (typeof fromMetadata !== 'string' && bySemantics && 'fromTfliteMetadata' in bySemantics) {
    const md = req.tflite?.metadata;
    const { data, assumptions } = bySemantics.fromTfliteMetadata(fromMetadata, {
      base: base(req),
      summary: metadataSummary(req.tflite),
      describedAs: `${md?.name ?? ''} ${md?.description ?? ''}`,
    });
    return {
      kind: 'tflite-metadata-semantic',
      manifest: checked(req, data),
      assumptions: [...assumptions],
    };
  }
  const reasons = [...match.reasons, `not semantic segmentation by its metadata: ${fromMetadata}`];
  try {
    // AI Hub TFLite assets keep their tensor names (image, boxes, ...) through the conversion.
    const derived = deriveManifest(req.onnxFile, info, { allowAihub: true, name: req.name });
    const data = { ...derived.manifest, provenance: { ...req.provenance } };
    return { kind: 'aihub', manifest: checked(req, data), assumptions: derived.assumptions };
  } catch (e) {
    if (!(e instanceof ImportRefusedError)) throw e;
    return draftFor(req, [...reasons, `not an AI Hub layout: ${aihubReason(e)}`]);
  }
}

/** What the metadata says of the model, for the notes: name, version, author, description. */
function metadataSummary(tflite: TfliteModelInfo | undefined): string {
  const md = tflite?.metadata;
  if (md === undefined) return '';
  const parts = [
    md.name === '' ? '' : `name "${tfliteMetadataText(md.name, 80)}"`,
    md.version === '' ? '' : `version "${tfliteMetadataText(md.version, 40)}"`,
    md.author === '' ? '' : `author "${tfliteMetadataText(md.author, 80)}"`,
    md.license === '' ? '' : `licence "${tfliteMetadataText(md.license, 80)}"`,
    md.description === '' ? '' : `description "${tfliteMetadataText(md.description, 300)}"`,
  ].filter((p) => p !== '');
  return parts.length === 0 ? '' : `TFLite metadata: ${parts.join(', ')}.`;
}

/** The reason part of deriveManifest's refusal, without the file name and I/O list. */
function aihubReason(e: ImportRefusedError): string {
  const m = /^[^:]*: (.*?) \(inputs: /.exec(e.message);
  return m?.[1] ?? e.message;
}
