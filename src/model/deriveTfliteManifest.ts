/**
 * The manifest of an ONNX model converted from TFLite (`htp-perception model import FILE.tflite`):
 * MediaPipe's BlazePose landmark and selfie segmentation layouts are recognised by their tensors;
 * an AI Hub layout by its tensor names, as for an ONNX export; anything else gets a draft with
 * what the file says (input, outputs, provenance) and the fields a person must fill in.
 */
import * as path from 'node:path';
import { checkManifestAgainstModel } from '../config/checkManifestAgainstModel';
import {
  type ModelManifest,
  type ModelManifestData,
  parseModelManifest,
} from '../config/modelManifest';
import { BLAZEPOSE_KEYPOINT_NAMES, BLAZEPOSE_SKELETON } from '../heads/blazeposeKeypoints';
import {
  deriveManifest,
  ImportRefusedError,
  introspectedFromOnnx,
  specOf,
  UNIT_NORMALIZATION,
} from './deriveManifest';
import type { OnnxModelInfo, OnnxValueInfo } from './readOnnxModel';
import { type ObservedRange, recognizeTfliteLayout } from './recognizeTfliteLayout';

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
}

export type TfliteLayoutKind = 'mediapipe-blazepose' | 'mediapipe-selfie' | 'aihub';

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

/** The fields a draft leaves to the person, by what the file cannot say. */
function draftFor(req: TfliteManifestRequest, reasons: readonly string[]): TfliteManifest {
  const [t] = req.info.inputs;
  const d = t?.dims ?? [];
  const nhwc = d[3] === 3;
  const missing = ['task', 'family', 'outputs', 'classNames'];
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
      normalization: UNIT_NORMALIZATION,
      resize: { mode: 'stretch' },
    },
    outputs: {
      format:
        '<ultralytics-packed | aihub-split | heatmaps | semantic-logits | semantic-argmax | blazepose-landmarks | semantic-probability>',
      '<the model outputs, to place under the format fields (docs/models.md, Manifest API)>':
        req.info.outputs.map(specOf),
    },
    classNames: ['<class 0>', '<class 1>'],
    notes:
      'Draft written by htp-perception model import: input as the conversion check fed it (RGB 0..1, ' +
      `stretched). Not recognised: ${reasons.join('; ')}.`,
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
  try {
    // AI Hub TFLite assets keep their tensor names (image, boxes, ...) through the conversion.
    const derived = deriveManifest(req.onnxFile, info, { allowAihub: true, name: req.name });
    const data = { ...derived.manifest, provenance: { ...req.provenance } };
    return { kind: 'aihub', manifest: checked(req, data), assumptions: derived.assumptions };
  } catch (e) {
    if (!(e instanceof ImportRefusedError)) throw e;
    return draftFor(req, [...layout.reasons, `not an AI Hub layout: ${aihubReason(e)}`]);
  }
}

/** The reason part of deriveManifest's refusal, without the file name and I/O list. */
function aihubReason(e: ImportRefusedError): string {
  const m = /^[^:]*: (.*?) \(inputs: /.exec(e.message);
  return m?.[1] ?? e.message;
}
