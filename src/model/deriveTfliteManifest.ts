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
import {
  type ModelManifest,
  type ModelManifestData,
  parseModelManifest,
} from '../config/modelManifest';
import {
  BLAZEPOSE_KEYPOINT_NAMES,
  BLAZEPOSE_SKELETON,
} from '../families/blazepose/blazeposeKeypoints';
import {
  deriveManifest,
  ImportRefusedError,
  introspectedFromOnnx,
  specOf,
  UNIT_NORMALIZATION,
} from './deriveManifest';
import type { OnnxModelInfo, OnnxValueInfo } from './readOnnxModel';
import { type ObservedRange, recognizeTfliteLayout } from './recognizeTfliteLayout';
import { type MetadataSemanticLayout, recognizeTfliteMetadata } from './recognizeTfliteMetadata';
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

export type TfliteLayoutKind =
  'mediapipe-blazepose' | 'mediapipe-selfie' | 'tflite-metadata-semantic' | 'aihub';

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

const BLAZEPOSE_NOTES =
  'MediaPipe BlazePose GHUM landmark model, one person per crop. MediaPipe feeds it the person ' +
  'region scaled into the square input keeping the aspect ratio, RGB 0..1; landmark visibility and ' +
  'presence are logits (MediaPipe applies a sigmoid), the person score is a probability ' +
  '(MediaPipe thresholds it at 0.5), the segmentation output is logits; landmarks 33 and 34 are ' +
  "MediaPipe's auxiliary points for aligning the next crop (mediapipe/modules/pose_landmark).";

const SELFIE_NOTES =
  'MediaPipe selfie segmentation: the whole image stretched to the input (no aspect kept), RGB 0..1; ' +
  'the output is the person probability per pixel, the sigmoid inside the model ' +
  '(mediapipe/modules/selfie_segmentation).';

function base(req: TfliteManifestRequest) {
  return {
    schemaVersion: 1,
    name: req.name,
    weights: 'pretrained',
    files: { fp32: path.basename(req.onnxFile) },
    provenance: { ...req.provenance },
  };
}

function nhwcInput(t: OnnxValueInfo, resize: object) {
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
    family: '<yolov8 | hrnet | deeplabv3 | blazepose | selfie-segmentation>',
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
      format:
        '<ultralytics-packed | aihub-split | heatmaps | semantic-logits | semantic-argmax | blazepose-landmarks | semantic-probability>',
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
  const layout = recognizeTfliteLayout(info.inputs, info.outputs, req.ranges);
  const byShapes =
    req.provenance.registry === 'user'
      ? [
          'recognised by its tensor shapes, not by a known file: edit the manifest if this is another network',
        ]
      : [];
  if (layout.kind === 'blazepose-landmarks') {
    const data = {
      ...base(req),
      task: 'pose',
      family: 'blazepose',
      input: nhwcInput(layout.input, { mode: 'letterbox', padValue: 0 }),
      outputs: {
        format: 'blazepose-landmarks',
        landmarks: specOf(layout.landmarks),
        personScore: specOf(layout.personScore),
        segmentation: { ...specOf(layout.segmentation), layout: 'NHWC' },
        heatmaps: { ...specOf(layout.heatmaps), layout: 'NHWC' },
        worldLandmarks: specOf(layout.worldLandmarks),
      },
      classNames: ['person'],
      keypoints: {
        names: [...BLAZEPOSE_KEYPOINT_NAMES],
        skeleton: BLAZEPOSE_SKELETON.map(([a, b]) => [a, b]),
      },
      notes: BLAZEPOSE_NOTES,
    };
    return { kind: 'mediapipe-blazepose', manifest: checked(req, data), assumptions: byShapes };
  }
  if (layout.kind === 'selfie-segmentation') {
    const data = {
      ...base(req),
      task: 'semantic',
      family: 'selfie-segmentation',
      input: nhwcInput(layout.input, { mode: 'stretch' }),
      outputs: {
        format: 'semantic-probability',
        probability: { ...specOf(layout.probability), layout: 'NHWC' },
      },
      classNames: ['background', 'person'],
      notes: SELFIE_NOTES,
    };
    return { kind: 'mediapipe-selfie', manifest: checked(req, data), assumptions: byShapes };
  }
  const fromMetadata =
    req.tflite === undefined
      ? 'the file has no TFLite metadata'
      : recognizeTfliteMetadata(req.tflite, info.inputs, info.outputs);
  if (typeof fromMetadata !== 'string') {
    const { data, assumptions } = metadataSemantic(req, fromMetadata);
    return { kind: 'tflite-metadata-semantic', manifest: checked(req, data), assumptions };
  }
  const reasons = [...layout.reasons, `not semantic segmentation by its metadata: ${fromMetadata}`];
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

/**
 * The manifest of a semantic model described by its metadata. The normalization is kept in the
 * metadata's units (pixel 0..255, scale 1), so the manifest shows the file's own numbers. The whole
 * image is stretched to the input, as TensorFlow Lite's image segmenter feeds it; each pixel's
 * class is the argmax over its scores (DeepLab's head), whether they are logits or probabilities.
 */
function metadataSemantic(
  req: TfliteManifestRequest,
  l: MetadataSemanticLayout,
): { data: object; assumptions: string[] } {
  const md = req.tflite?.metadata;
  const assumptions: string[] = [];
  if (!l.rgbStated) assumptions.push("colour order RGB (the input's metadata does not state it)");
  if (!/deeplab/i.test(`${md?.name ?? ''} ${md?.description ?? ''}`)) {
    assumptions.push(
      'family deeplabv3 names the head (per-pixel argmax over the class scores), not this network',
    );
  }
  const data = {
    ...base(req),
    task: 'semantic',
    family: 'deeplabv3',
    input: {
      name: l.input.name,
      width: l.width,
      height: l.height,
      layout: 'NHWC',
      colorOrder: 'rgb',
      dtype: 'float32',
      normalization: { scale: 1, mean: [...l.mean], std: [...l.std] },
      resize: { mode: 'stretch' },
    },
    outputs: {
      format: 'semantic-logits',
      logits: { ...specOf(l.output), layout: l.outputLayout },
    },
    classNames: [...l.labels],
    notes: [
      `Semantic segmentation as the file's TFLite metadata describes it: labels from its packed ${l.labelsFile}, input value = (pixel - mean) / std with the metadata's NormalizationOptions, the whole image stretched to the input (as TensorFlow Lite's image segmenter feeds it); each pixel's class is the argmax over the output's ${l.labels.length} class scores.`,
      metadataSummary(req.tflite),
    ]
      .filter((n) => n !== '')
      .join(' '),
  };
  return { data, assumptions };
}

/** The reason part of deriveManifest's refusal, without the file name and I/O list. */
function aihubReason(e: ImportRefusedError): string {
  const m = /^[^:]*: (.*?) \(inputs: /.exec(e.message);
  return m?.[1] ?? e.message;
}
