import { cocoManifestKeypoints } from '../cocoManifestKeypoints';
import { fixedDims, sameDims } from '../tfliteShapes';
import type { ExportTensor } from '../exportTensor';
import { specOf } from '../exportTensor';
import type {
  ImportedInput,
  TfjsGraphView,
  TfjsImport,
  TfjsLayoutRecognizer,
} from '../modelFamily';

/** COCO's keypoints, which every MoveNet predicts. */
const K = 17;

export interface MovenetTfjsLayout {
  readonly kind: 'movenet-multipose' | 'movenet-singlepose';
  readonly output: string;
}

/** MoveNet's input: RGB 0..255 integers [1,H,W,3] (int32 in TensorFlow's graph). */
function byteImage(g: TfjsGraphView): string | undefined {
  const d = g.input.dims;
  const integer = g.input.elemType === 'int32' || g.input.elemType === 'uint8';
  return d.length === 4 && d[3] === 3 && integer ? undefined : 'input is not integer [1,H,W,3]';
}

function only(g: TfjsGraphView): ExportTensor | string {
  const [out] = g.outputs;
  return g.outputs.length === 1 && out !== undefined ? out : `${g.outputs.length} outputs, not 1`;
}

function multipose(g: TfjsGraphView): MovenetTfjsLayout | string {
  const out = only(g);
  if (typeof out === 'string') return out;
  const d = fixedDims(out);
  const notImage = byteImage(g);
  if (notImage !== undefined) return notImage;
  return d?.length === 3 && d[0] === 1 && d[2] === 3 * K + 5
    ? { kind: 'movenet-multipose', output: out.name }
    : `output '${out.name}' is not [1,P,${3 * K + 5}]`;
}

function singlepose(g: TfjsGraphView): MovenetTfjsLayout | string {
  const out = only(g);
  if (typeof out === 'string') return out;
  const notImage = byteImage(g);
  if (notImage !== undefined) return notImage;
  return sameDims(fixedDims(out), [1, 1, K, 3])
    ? { kind: 'movenet-singlepose', output: out.name }
    : `output '${out.name}' is not [1,1,${K},3]`;
}

/** The bytes MoveNet takes, as the manifest says them: RGB 0..255 kept whole, aspect kept. */
function byteInput(i: ImportedInput) {
  return {
    name: i.name,
    width: i.width,
    height: i.height,
    layout: 'NHWC',
    colorOrder: 'rgb',
    dtype: 'uint8',
    quantization: { scale: 1, zeroPoint: 0 },
    normalization: { scale: 1, mean: [0, 0, 0], std: [1, 1, 1] },
    resize: { mode: 'letterbox', padValue: 0 },
  };
}

const NOTES = {
  'movenet-multipose':
    'Google MoveNet MultiPose Lightning (TF Hub google/movenet/multipose/lightning/1), imported from TensorFlow.js: the whole image ' +
    'letterboxed (padding 0) to the input chosen at import (multiples of 32), RGB 0..255; up to 6 people, each 17 COCO keypoints ' +
    '(y, x, score) and a box (ymin, xmin, ymax, xmax, score), normalized to the input; bottom-up, no person detector. ' +
    "The model card's demo keeps people from score 0.2 and keypoints from 0.3.",
  'movenet-singlepose':
    'Google MoveNet SinglePose (TF Hub google/movenet/singlepose), imported from TensorFlow.js: top-down, one person per crop of a ' +
    "detector's box (person_source), letterboxed (padding 0), RGB 0..255; 17 COCO keypoints (y, x, score) normalized to the crop. " +
    "The model card recommends keypoints from score 0.3; the pose's score is the mean of its keypoints'.",
} as const;

function recognizer(kind: MovenetTfjsLayout['kind']) {
  return {
    label: kind === 'movenet-multipose' ? 'MoveNet MultiPose' : 'MoveNet SinglePose',
    kind,
    title:
      kind === 'movenet-multipose'
        ? 'MoveNet MultiPose (bottom-up, COCO-17)'
        : 'MoveNet SinglePose Lightning/Thunder (top-down, COCO-17)',
    recognize: kind === 'movenet-multipose' ? multipose : singlepose,
    checkInput: () => undefined,
    manifest(layout: MovenetTfjsLayout, x: TfjsImport) {
      const out = specOf(x.output(layout.output));
      return {
        ...x.base,
        task: 'pose',
        family: 'movenet',
        input: byteInput(x.input),
        outputs:
          layout.kind === 'movenet-multipose'
            ? { format: 'movenet-multipose', poses: out }
            : { format: 'movenet-singlepose', keypoints: out },
        classNames: ['person'],
        keypoints: cocoManifestKeypoints(),
        notes: NOTES[layout.kind],
      };
    },
  } satisfies TfjsLayoutRecognizer<MovenetTfjsLayout>;
}

export const MOVENET_MULTIPOSE_TFJS_LAYOUT = recognizer('movenet-multipose');
export const MOVENET_SINGLEPOSE_TFJS_LAYOUT = recognizer('movenet-singlepose');
