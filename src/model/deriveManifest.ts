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
  type TensorSpec,
  parseModelManifest,
} from '../config/modelManifest';
import { COCO_CLASS_NAMES } from '../heads/cocoClassNames';
import { COCO_KEYPOINT_NAMES, COCO_SKELETON } from '../heads/cocoKeypoints';
import { VOC_CLASS_NAMES } from '../heads/vocClassNames';
import { RAW_HEAD_METADATA_KEY } from './cutAtRawHead';
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

/** COCO's 17 keypoints and skeleton, as a manifest's `keypoints`. */
function cocoKeypoints(): { names: string[]; skeleton: [number, number][] } {
  return {
    names: [...COCO_KEYPOINT_NAMES],
    skeleton: COCO_SKELETON.map(([a, b]): [number, number] => [a, b]),
  };
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

const EXAMPLES = {
  ultralytics:
    'models/examples/ultralytics-yolov8n-{detect,pose,seg}.manifest.json or, for an end-to-end export (NMS inside), ultralytics-yolo11n-end2end-detect.manifest.json (docs/models.md, "Describing your own model")',
  aihub: 'models/examples/aihub-*.manifest.json (docs/models.md, "Describing your own model")',
  any: 'the closest of models/examples/*.manifest.json (docs/models.md, "Describing your own model")',
} as const;

// --- Ultralytics metadata values are Python literals (str(dict), str(list)).

/** Parses `{0: 'person', 1: "men's"}` or `['a', 'b']` into names by index. */
export function parsePythonNames(text: string): string[] | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  const str = (): string | undefined => {
    const q = text[i];
    if (q !== "'" && q !== '"') return undefined;
    let out = '';
    for (i++; i < text.length; i++) {
      const ch = text[i] ?? '';
      if (ch === '\\') {
        const next = text[++i] ?? '';
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else if (ch === q) {
        i++;
        return out;
      } else out += ch;
    }
    return undefined;
  };
  ws();
  const open = text[i];
  if (open !== '{' && open !== '[') return undefined;
  const close = open === '{' ? '}' : ']';
  i++;
  const byIndex = new Map<number, string>();
  for (let n = 0; ; n++) {
    ws();
    if (text[i] === close) {
      i++;
      break;
    }
    let key = n;
    if (open === '{') {
      const m = /^-?\d+/.exec(text.slice(i));
      if (!m) return undefined;
      key = Number(m[0]);
      i += m[0].length;
      ws();
      if (text[i++] !== ':') return undefined;
      ws();
    }
    const value = str();
    if (value === undefined) return undefined;
    byIndex.set(key, value);
    ws();
    if (text[i] === ',') i++;
    else if (text[i] !== close) return undefined;
  }
  ws();
  if (i !== text.length) return undefined;
  const names: string[] = [];
  for (let k = 0; k < byIndex.size; k++) {
    const v = byIndex.get(k);
    // Names must be 0..n-1 without gaps: class ids index this list.
    if (v === undefined) return undefined;
    names.push(v);
  }
  return names;
}

/** `[640, 640]`, `640` or `(640, 480)` into [height, width]. */
function parseImgsz(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const nums = text.match(/\d+/g)?.map(Number) ?? [];
  if (nums.length === 1 && nums[0] !== undefined) return [nums[0], nums[0]];
  if (nums.length === 2 && nums[0] !== undefined && nums[1] !== undefined)
    return [nums[0], nums[1]];
  return undefined;
}

function fixed(d: number | string | undefined): number | undefined {
  return typeof d === 'number' && d > 0 ? d : undefined;
}

/** Manifest dims: the file's fixed dims, -1 where the file leaves a dimension dynamic. */
export function specOf(t: OnnxValueInfo): TensorSpec {
  return {
    name: t.name,
    dims: t.dims.map((d) => fixed(d) ?? -1),
    // Unchecked here on purpose: the derived manifest goes through parseModelManifest, whose
    // schema refuses a type the engine cannot return, naming the tensor.
    dtype: t.elemType as TensorSpec['dtype'],
  };
}

export const UNIT_NORMALIZATION = {
  scale: 1 / 255,
  mean: [0, 0, 0] as [number, number, number],
  std: [1, 1, 1] as [number, number, number],
};

function imageInput(
  file: string,
  info: OnnxModelInfo,
  example: string,
  size: [number, number] | undefined,
): { name: string; width: number; height: number; layout: 'NCHW' | 'NHWC'; dtype: ElementType } {
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
  const height = fixed(t.dims[hAxis]) ?? size?.[0];
  const width = fixed(t.dims[wAxis]) ?? size?.[1];
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

/** What an end-to-end manifest says about the NMS the model runs itself. */
export const END_TO_END_NOTE =
  'End-to-end export: NMS (IoU, class-aware, max_det rows) runs inside the model, which also ' +
  "drops everything below its export's conf (0.25 unless set at export); a score_threshold or " +
  'track_low_threshold below that finds nothing more, and iou_threshold does not apply.';

/** What the manifest of an end-to-end export cut at its raw head (cutAtRawHead) says. */
export const RAW_HEAD_NOTE =
  'End-to-end export cut at its raw head: the NMS it ended in was removed, ours runs on the CPU';

/** Anchors of the packed layout for an input: one per cell of the stride 8, 16 and 32 grids. */
function packedAnchors(height: number, width: number): number {
  return [8, 16, 32].reduce((n, s) => n + Math.ceil(height / s) * Math.ceil(width / s), 0);
}

/**
 * Whether an Ultralytics output holds end-to-end rows [1, N, rowWidth] (NMS inside the graph).
 * Ultralytics says so in its metadata: `end2end: True` (8.3.x from YOLO26 on; YOLOv10 and YOLO26
 * are end-to-end by default) or `nms: True` among the export `args` (8.3.x `nms=True` exports). A
 * file without either key is end-to-end when only that reading fits its tensor: a packed
 * [1, anchors, channels] of as many channels is told apart by its anchor count. 'refused': the
 * metadata says end-to-end and the tensor disagrees.
 */
function isEndToEnd(
  meta: Readonly<Record<string, string>>,
  pred: OnnxValueInfo,
  packedLayout: 'channels-first' | 'anchors-first' | undefined,
  rowWidth: number,
  input: { width: number; height: number },
): boolean | 'refused' {
  const rowsFit = pred.dims[2] === rowWidth && (pred.dims[0] === 1 || !fixed(pred.dims[0]));
  // A packed [1, N, channels] has one row per anchor of the three grids (a dynamic N may be).
  const n = fixed(pred.dims[1]);
  const packedFits =
    packedLayout === 'channels-first' ||
    (packedLayout === 'anchors-first' &&
      (n === undefined || n === packedAnchors(input.height, input.width)));
  const said =
    /^\s*true\s*$/i.test(meta.end2end ?? '') || /['"]nms['"]\s*:\s*True\b/.test(meta.args ?? '');
  if (said) return rowsFit ? true : packedFits ? false : 'refused';
  return rowsFit && !packedFits;
}

function fromUltralytics(file: string, info: OnnxModelInfo, name: string): DerivedManifest {
  const meta = info.metadata;
  const ex = EXAMPLES.ultralytics;
  const task = meta.task ?? '';
  if (task !== 'detect' && task !== 'pose' && task !== 'segment') {
    refuse(file, info, `Ultralytics task '${task}' is not one of detect, pose, segment`, ex);
  }
  const classNames = parsePythonNames(meta.names ?? '');
  if (classNames === undefined || classNames.length === 0) {
    refuse(file, info, `Ultralytics metadata 'names' is not a list of class names`, ex);
  }
  const input = imageInput(file, info, ex, parseImgsz(meta.imgsz));
  const [pred, protos] = info.outputs;
  if (pred === undefined || pred.dims.length !== 3) {
    refuse(
      file,
      info,
      'the first output is neither the packed [1, channels, anchors] tensor nor end-to-end [1, N, 6 + extra] rows',
      ex,
    );
  }
  let numKeypoints = 0;
  if (task === 'pose') {
    const kpt = (meta.kpt_shape ?? '').match(/\d+/g)?.map(Number) ?? [];
    if (kpt.length !== 2 || kpt[1] !== 3) {
      // Our pose decoder reads (x, y, visibility) triples; [K, 2] exports have no visibility.
      refuse(file, info, `kpt_shape '${meta.kpt_shape ?? ''}' is not [K, 3]`, ex);
    }
    numKeypoints = kpt[0] ?? 0;
  }
  const maskCoefficients = task === 'segment' ? fixed(protos?.dims[1]) : undefined;
  if (
    task === 'segment' &&
    (protos === undefined || protos.dims.length !== 4 || !maskCoefficients)
  ) {
    refuse(file, info, 'a segment export needs a second output of prototypes [1, 32, h, w]', ex);
  }
  const extra = (maskCoefficients ?? 0) + numKeypoints * 3;
  const channels = 4 + (task === 'pose' ? 1 : classNames.length) + extra;
  const packedLayout =
    pred.dims[1] === channels
      ? 'channels-first'
      : pred.dims[2] === channels
        ? 'anchors-first'
        : undefined;
  const endToEnd = isEndToEnd(meta, pred, packedLayout, 6 + extra, input);
  if (endToEnd === 'refused') {
    refuse(
      file,
      info,
      `the metadata says the export ends in NMS (end2end / nms=True) but output '${pred.name}' is not [1, N, ${6 + extra}] rows (x1, y1, x2, y2, score, class${extra ? ` + ${extra} coefficients/keypoint values` : ''})`,
      ex,
    );
  }
  if (!endToEnd && packedLayout === undefined) {
    refuse(
      file,
      info,
      `output '${pred.name}' has no axis of ${channels} channels (4 box + classes/keypoints/coefficients from the metadata), nor end-to-end rows of ${6 + extra} values`,
      ex,
    );
  }
  const keypoints =
    task === 'pose'
      ? numKeypoints === COCO_KEYPOINT_NAMES.length
        ? cocoKeypoints()
        : {
            names: Array.from({ length: numKeypoints }, (_, k) => `kpt${k}`),
            skeleton: [] as [number, number][],
          }
      : undefined;
  const assumptions: string[] = [];
  if (keypoints !== undefined && numKeypoints !== COCO_KEYPOINT_NAMES.length) {
    assumptions.push(`${numKeypoints} keypoints are not COCO's 17: named kpt0.., no skeleton`);
  }
  const protosOutputs =
    task === 'segment' && protos
      ? { maskCoefficients, protos: { ...specOf(protos), layout: 'NCHW' } }
      : {};
  const untrained = /untrained/i.test(meta.description ?? '');
  const data = {
    schemaVersion: 1,
    name,
    task,
    family: 'yolov8',
    weights: untrained ? 'untrained' : 'pretrained',
    files: { fp32: path.basename(file) },
    input: {
      ...input,
      colorOrder: 'rgb',
      normalization: UNIT_NORMALIZATION,
      resize: { mode: 'letterbox', padValue: 114 },
    },
    outputs: endToEnd
      ? {
          format: 'ultralytics-end2end',
          predictions: specOf(pred),
          boxes: { format: 'xyxy', units: 'input-pixels' },
          ...protosOutputs,
        }
      : {
          format: 'ultralytics-packed',
          predictions: { ...specOf(pred), layout: packedLayout },
          boxes: { format: 'cxcywh', units: 'input-pixels' },
          scoresActivated: true,
          ...protosOutputs,
        },
    classNames,
    ...(keypoints ? { keypoints } : {}),
    ...(endToEnd
      ? { notes: END_TO_END_NOTE }
      : meta[RAW_HEAD_METADATA_KEY] !== undefined
        ? { notes: `${RAW_HEAD_NOTE} (${meta[RAW_HEAD_METADATA_KEY]})` }
        : {}),
    provenance: userProvenance(
      `Ultralytics ${meta.version ?? ''} ONNX export (${meta.description ?? 'no description'}), manifest derived from its metadata by 'htp-perception model import'`,
      meta,
    ),
  };
  return { kind: 'ultralytics', manifest: parseModelManifest(data, file), assumptions };
}

function outputByName(info: OnnxModelInfo, n: string): OnnxValueInfo | undefined {
  return info.outputs.find((o) => o.name === n);
}

function fromAihub(file: string, info: OnnxModelInfo, name: string): DerivedManifest {
  const ex = EXAMPLES.aihub;
  const meta = info.metadata;
  const input = imageInput(file, info, ex, undefined);
  const names = new Set(info.outputs.map((o) => o.name));
  const assumptions: string[] = [];
  const base = {
    schemaVersion: 1,
    name,
    weights: 'pretrained',
    files: { fp32: path.basename(file) },
  };
  const inputWith = (resize: object) => ({
    ...input,
    colorOrder: 'rgb',
    // AI Hub models take RGB 0..1 and normalize inside the graph where they need it.
    normalization: UNIT_NORMALIZATION,
    resize,
  });
  const provenance = (what: string) =>
    userProvenance(
      `Qualcomm AI Hub ${what}, ONNX asset; manifest derived from its tensor names by 'htp-perception model import'`,
      meta,
    );
  const boxes = outputByName(info, 'boxes');
  const scores = outputByName(info, 'scores');
  const classIdx = outputByName(info, 'class_idx');
  if (boxes && scores && classIdx) {
    const coeffs = outputByName(info, 'mask_coeffs');
    const protos = outputByName(info, 'mask_protos');
    const segment = coeffs !== undefined && protos !== undefined;
    const extra = [...names].filter(
      (n) => !['boxes', 'scores', 'class_idx', 'mask_coeffs', 'mask_protos'].includes(n),
    );
    if (extra.length > 0) refuse(file, info, `unexpected outputs ${extra.join(', ')}`, ex);
    if (boxes.dims.length !== 3 || boxes.dims[2] !== 4) {
      refuse(file, info, `'boxes' is not [1, anchors, 4]`, ex);
    }
    // Names come from Ultralytics metadata when the export kept it; AI Hub's YOLOv8 is COCO-80.
    const metaNames = parsePythonNames(meta.names ?? '');
    if (metaNames === undefined) assumptions.push('class names: COCO-80 (AI Hub YOLOv8 default)');
    // Ultralytics-trained weights saw pad 114; AI Hub's own evaluation letterboxes with 0.
    const ultralyticsWeights = metaNames !== undefined;
    if (!ultralyticsWeights) assumptions.push('letterbox pad 0, as AI Hub evaluates');
    let protosLayout: 'NCHW' | 'NHWC' = 'NCHW';
    if (segment) {
      const c = fixed(coeffs.dims[2]);
      protosLayout = protos.dims[1] === c ? 'NCHW' : protos.dims[3] === c ? 'NHWC' : 'NCHW';
      if (protos.dims[1] !== c && protos.dims[3] !== c) {
        refuse(file, info, `'mask_protos' has no axis of ${String(c)} prototypes`, ex);
      }
    }
    const data = {
      ...base,
      task: segment ? 'segment' : 'detect',
      family: 'yolov8',
      input: inputWith({ mode: 'letterbox', padValue: ultralyticsWeights ? 114 : 0 }),
      outputs: {
        format: 'aihub-split',
        boxesTensor: specOf(boxes),
        boxes: { format: 'xyxy', units: 'input-pixels' },
        scores: specOf(scores),
        classIdx: specOf(classIdx),
        ...(segment
          ? { maskCoeffs: specOf(coeffs), maskProtos: { ...specOf(protos), layout: protosLayout } }
          : {}),
      },
      classNames: metaNames ?? [...COCO_CLASS_NAMES],
      provenance: provenance(segment ? 'YOLOv8 segmentation' : 'YOLOv8 detection'),
    };
    return { kind: 'aihub', manifest: parseModelManifest(data, file), assumptions };
  }
  const heatmaps = outputByName(info, 'heatmaps');
  if (heatmaps && names.size === 1) {
    const d = heatmaps.dims;
    const layout =
      d.length !== 4
        ? undefined
        : d[2] === input.height / 4 && d[3] === input.width / 4
          ? 'NCHW'
          : d[1] === input.height / 4 && d[2] === input.width / 4
            ? 'NHWC'
            : undefined;
    if (layout === undefined) {
      refuse(file, info, `'heatmaps' is not [1, K, H/4, W/4] or [1, H/4, W/4, K]`, ex);
    }
    const k = fixed(layout === 'NCHW' ? d[1] : d[3]) ?? 0;
    if (k !== COCO_KEYPOINT_NAMES.length) {
      refuse(file, info, `${k} heatmaps; only COCO's 17 keypoints are known`, ex);
    }
    assumptions.push('normalization inside the model (AI Hub HRNet): input is plain RGB 0..1');
    const data = {
      ...base,
      task: 'pose',
      family: 'hrnet',
      input: inputWith({ mode: 'stretch' }),
      outputs: { format: 'heatmaps', heatmaps: { ...specOf(heatmaps), layout } },
      classNames: ['person'],
      keypoints: cocoKeypoints(),
      provenance: provenance('HRNetPose'),
    };
    return { kind: 'aihub', manifest: parseModelManifest(data, file), assumptions };
  }
  const mask = outputByName(info, 'mask');
  if (mask && names.size === 1) {
    if (mask.dims.length !== 3) refuse(file, info, `'mask' is not [1, H, W]`, ex);
    assumptions.push('class names: the 21 PASCAL VOC classes (AI Hub DeepLabV3 default)');
    const data = {
      ...base,
      task: 'semantic',
      family: 'deeplabv3',
      input: inputWith({ mode: 'stretch' }),
      outputs: { format: 'semantic-argmax', mask: specOf(mask) },
      classNames: [...VOC_CLASS_NAMES],
      provenance: provenance('DeepLabV3 (argmax inside the model)'),
    };
    return { kind: 'aihub', manifest: parseModelManifest(data, file), assumptions };
  }
  return refuse(
    file,
    info,
    'input is named like an AI Hub export but the outputs are none of boxes/scores/class_idx(/mask_coeffs/mask_protos), heatmaps, mask',
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
        ? EXAMPLES.ultralytics
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
