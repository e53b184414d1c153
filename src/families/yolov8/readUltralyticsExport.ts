/**
 * Ultralytics exports read by their metadata (task, names, imgsz, kpt_shape; end2end or nms=True
 * for exports that end in NMS): the packed or the end-to-end layout, detect, pose or segment.
 */
import * as path from 'node:path';
import { COCO_KEYPOINT_NAMES } from '../../heads/cocoKeypoints';
import { cocoManifestKeypoints } from '../cocoManifestKeypoints';
import { type ExportTensor, fixedDim, specOf } from '../exportTensor';
import { UNIT_NORMALIZATION } from '../manifestParts';
import type { ImportedManifest, UltralyticsImport } from '../modelFamily';
import { parsePythonNames } from './parsePythonNames';

/** Where `htp-perception model import --raw-head` (src/model/cutAtRawHead.ts) records its cut. */
export const RAW_HEAD_METADATA_KEY = 'htp_perception_raw_head';

/** The manifests a refused Ultralytics export is described from, by hand. */
export const ULTRALYTICS_EXAMPLE =
  'models/examples/ultralytics-yolov8n-{detect,pose,seg}.manifest.json or, for an end-to-end export (NMS inside), ultralytics-yolo11n-end2end-detect.manifest.json (docs/models.md, "Describing your own model")';

/** `[640, 640]`, `640` or `(640, 480)` into [height, width]. */
function parseImgsz(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const nums = text.match(/\d+/g)?.map(Number) ?? [];
  if (nums.length === 1 && nums[0] !== undefined) return [nums[0], nums[0]];
  if (nums.length === 2 && nums[0] !== undefined && nums[1] !== undefined)
    return [nums[0], nums[1]];
  return undefined;
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
  pred: ExportTensor,
  packedLayout: 'channels-first' | 'anchors-first' | undefined,
  rowWidth: number,
  input: { width: number; height: number },
): boolean | 'refused' {
  const rowsFit = pred.dims[2] === rowWidth && (pred.dims[0] === 1 || !fixedDim(pred.dims[0]));
  // A packed [1, N, channels] has one row per anchor of the three grids (a dynamic N may be).
  const n = fixedDim(pred.dims[1]);
  const packedFits =
    packedLayout === 'channels-first' ||
    (packedLayout === 'anchors-first' &&
      (n === undefined || n === packedAnchors(input.height, input.width)));
  const said =
    /^\s*true\s*$/i.test(meta.end2end ?? '') || /['"]nms['"]\s*:\s*True\b/.test(meta.args ?? '');
  if (said) return rowsFit ? true : packedFits ? false : 'refused';
  return rowsFit && !packedFits;
}

function derive(x: UltralyticsImport): ImportedManifest {
  const { file, model: info, name } = x;
  const meta = info.metadata;
  const ex = ULTRALYTICS_EXAMPLE;
  const task = meta.task ?? '';
  if (task !== 'detect' && task !== 'pose' && task !== 'segment') {
    x.refuse(`Ultralytics task '${task}' is not one of detect, pose, segment`, ex);
  }
  const classNames = parsePythonNames(meta.names ?? '');
  if (classNames === undefined || classNames.length === 0) {
    x.refuse(`Ultralytics metadata 'names' is not a list of class names`, ex);
  }
  const input = x.imageInput(parseImgsz(meta.imgsz), ex);
  const [pred, protos] = info.outputs;
  if (pred === undefined || pred.dims.length !== 3) {
    x.refuse(
      'the first output is neither the packed [1, channels, anchors] tensor nor end-to-end [1, N, 6 + extra] rows',
      ex,
    );
  }
  let numKeypoints = 0;
  if (task === 'pose') {
    const kpt = (meta.kpt_shape ?? '').match(/\d+/g)?.map(Number) ?? [];
    if (kpt.length !== 2 || kpt[1] !== 3) {
      // Our pose decoder reads (x, y, visibility) triples; [K, 2] exports have no visibility.
      x.refuse(`kpt_shape '${meta.kpt_shape ?? ''}' is not [K, 3]`, ex);
    }
    numKeypoints = kpt[0] ?? 0;
  }
  const maskCoefficients = task === 'segment' ? fixedDim(protos?.dims[1]) : undefined;
  if (
    task === 'segment' &&
    (protos === undefined || protos.dims.length !== 4 || !maskCoefficients)
  ) {
    x.refuse('a segment export needs a second output of prototypes [1, 32, h, w]', ex);
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
    x.refuse(
      `the metadata says the export ends in NMS (end2end / nms=True) but output '${pred.name}' is not [1, N, ${6 + extra}] rows (x1, y1, x2, y2, score, class${extra ? ` + ${extra} coefficients/keypoint values` : ''})`,
      ex,
    );
  }
  if (!endToEnd && packedLayout === undefined) {
    x.refuse(
      `output '${pred.name}' has no axis of ${channels} channels (4 box + classes/keypoints/coefficients from the metadata), nor end-to-end rows of ${6 + extra} values`,
      ex,
    );
  }
  const keypoints =
    task === 'pose'
      ? numKeypoints === COCO_KEYPOINT_NAMES.length
        ? cocoManifestKeypoints()
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
    provenance: x.provenance(
      `Ultralytics ${meta.version ?? ''} ${file.endsWith('.pte') ? 'ExecuTorch' : 'ONNX'} export (${meta.description ?? 'no description'}), manifest derived from its metadata by 'htp-perception model import'`,
    ),
  };
  return { data, assumptions };
}

export const ULTRALYTICS_IMPORTER = { example: ULTRALYTICS_EXAMPLE, derive };
