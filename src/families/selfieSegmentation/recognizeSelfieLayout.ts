import { specOf, type ExportTensor } from '../exportTensor';
import type { ObservedRange, TfliteLayoutRecognizer } from '../modelFamily';
import { fixedDims, sameDims, nhwcImage, within01 } from '../tfliteShapes';

export interface SelfieLayout {
  readonly kind: 'selfie-segmentation';
  readonly input: ExportTensor;
  readonly probability: ExportTensor;
}

/** The input sizes (height x width) of MediaPipe's selfie models: general and landscape. */
export const SELFIE_INPUT_SIZES: readonly (readonly [number, number])[] = [
  [256, 256],
  [144, 256],
];

const SELFIE_NOTES =
  'MediaPipe selfie segmentation: the whole image stretched to the input (no aspect kept), RGB 0..1; ' +
  'the output is the person probability per pixel, the sigmoid inside the model ' +
  '(mediapipe/modules/selfie_segmentation).';

function selfie(
  inputs: readonly ExportTensor[],
  outputs: readonly ExportTensor[],
  ranges: ReadonlyMap<string, ObservedRange>,
): SelfieLayout | string {
  const img = nhwcImage(inputs);
  if (typeof img === 'string') return img;
  const { h, w } = img;
  if (!SELFIE_INPUT_SIZES.some(([sh, sw]) => sh === h && sw === w)) {
    return `input ${h}x${w} is none of ${SELFIE_INPUT_SIZES.map(([a, b]) => `${a}x${b}`).join(', ')}`;
  }
  const [out] = outputs;
  if (outputs.length !== 1 || out === undefined) return `${outputs.length} outputs, not 1`;
  if (out.elemType !== 'float32' || !sameDims(fixedDims(out), [1, h, w, 1])) {
    return `output '${out.name}' is not float32 [1,${h},${w},1]`;
  }
  if (!within01(ranges.get(out.name))) {
    return `output '${out.name}' left 0..1 on the check images: not a probability`;
  }
  return { kind: 'selfie-segmentation', input: img.t, probability: out };
}

/** How `model import FILE.tflite` finds this layout in a converted model, and its manifest. */
export const SELFIE_TFLITE_LAYOUT = {
  label: 'selfie segmentation',
  kind: 'mediapipe-selfie',
  title: 'MediaPipe selfie segmentation',
  recognize: selfie,
  manifest(layout, x) {
    return {
      ...x.base,
      task: 'semantic',
      family: 'selfie-segmentation',
      input: x.nhwcInput(layout.input, { mode: 'stretch' }),
      outputs: {
        format: 'semantic-probability',
        probability: { ...specOf(layout.probability), layout: 'NHWC' },
      },
      classNames: ['background', 'person'],
      notes: SELFIE_NOTES,
    };
  },
} as const satisfies TfliteLayoutRecognizer<SelfieLayout>;
