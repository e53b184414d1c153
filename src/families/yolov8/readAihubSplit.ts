import { COCO_CLASS_NAMES } from '../../heads/cocoClassNames';
import { exportOutput, fixedDim, specOf } from '../exportTensor';
import type { AihubImport, ImportedManifest } from '../modelFamily';
import { parsePythonNames } from './parsePythonNames';

/**
 * AI Hub's YOLOv8 detect and segment exports: boxes, scores and class_idx (+ mask_coeffs and
 * mask_protos), by their tensor names; class names from Ultralytics metadata when the export kept it.
 */
export function readAihubSplit(x: AihubImport): ImportedManifest | undefined {
  const meta = x.model.metadata;
  const names = new Set(x.model.outputs.map((o) => o.name));
  const assumptions: string[] = [];
  const boxes = exportOutput(x.model, 'boxes');
  const scores = exportOutput(x.model, 'scores');
  const classIdx = exportOutput(x.model, 'class_idx');
  if (!boxes || !scores || !classIdx) return undefined;
  const coeffs = exportOutput(x.model, 'mask_coeffs');
  const protos = exportOutput(x.model, 'mask_protos');
  const segment = coeffs !== undefined && protos !== undefined;
  const extra = [...names].filter(
    (n) => !['boxes', 'scores', 'class_idx', 'mask_coeffs', 'mask_protos'].includes(n),
  );
  if (extra.length > 0) x.refuse(`unexpected outputs ${extra.join(', ')}`);
  if (boxes.dims.length !== 3 || boxes.dims[2] !== 4) {
    x.refuse(`'boxes' is not [1, anchors, 4]`);
  }
  // Names come from Ultralytics metadata when the export kept it; AI Hub's YOLOv8 is COCO-80.
  const metaNames = parsePythonNames(meta.names ?? '');
  if (metaNames === undefined) assumptions.push('class names: COCO-80 (AI Hub YOLOv8 default)');
  // Ultralytics-trained weights saw pad 114; AI Hub's own evaluation letterboxes with 0.
  const ultralyticsWeights = metaNames !== undefined;
  if (!ultralyticsWeights) assumptions.push('letterbox pad 0, as AI Hub evaluates');
  let protosLayout: 'NCHW' | 'NHWC' = 'NCHW';
  if (segment) {
    const c = fixedDim(coeffs.dims[2]);
    protosLayout = protos.dims[1] === c ? 'NCHW' : protos.dims[3] === c ? 'NHWC' : 'NCHW';
    if (protos.dims[1] !== c && protos.dims[3] !== c) {
      x.refuse(`'mask_protos' has no axis of ${String(c)} prototypes`);
    }
  }
  const data = {
    ...x.base,
    task: segment ? 'segment' : 'detect',
    family: 'yolov8',
    input: x.inputWith({ mode: 'letterbox', padValue: ultralyticsWeights ? 114 : 0 }),
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
    provenance: x.provenance(segment ? 'YOLOv8 segmentation' : 'YOLOv8 detection'),
  };
  return { data, assumptions };
}
