/**
 * Recognises the two MediaPipe layouts `htp-perception model import FILE.tflite` knows, from the
 * converted model's tensors (shapes and element types, not names: other builds of the same
 * networks name their tensors differently) and, where shapes alone are ambiguous, from the value
 * range the conversion check observed (a probability stays within 0..1).
 */
import type { OnnxValueInfo } from './readOnnxModel';

/** The smallest and largest value an output took over the conversion check's images. */
export interface ObservedRange {
  readonly min: number;
  readonly max: number;
}

export interface BlazeposeLayout {
  readonly kind: 'blazepose-landmarks';
  readonly input: OnnxValueInfo;
  readonly landmarkCount: number;
  readonly landmarks: OnnxValueInfo;
  readonly personScore: OnnxValueInfo;
  readonly segmentation: OnnxValueInfo;
  readonly heatmaps: OnnxValueInfo;
  readonly worldLandmarks: OnnxValueInfo;
}

export interface SelfieLayout {
  readonly kind: 'selfie-segmentation';
  readonly input: OnnxValueInfo;
  readonly probability: OnnxValueInfo;
}

export interface UnrecognisedLayout {
  readonly kind: 'unrecognised';
  /** Why each known layout does not fit, for the refusal message. */
  readonly reasons: readonly string[];
}

export type TfliteLayout = BlazeposeLayout | SelfieLayout | UnrecognisedLayout;

/** BlazePose names 33 body landmarks; its landmark models output more (auxiliary ones). */
export const BLAZEPOSE_BODY_LANDMARKS = 33;

/** The input sizes (height x width) of MediaPipe's selfie models: general and landscape. */
export const SELFIE_INPUT_SIZES: readonly (readonly [number, number])[] = [
  [256, 256],
  [144, 256],
];

function fixedDims(t: OnnxValueInfo): number[] | undefined {
  return t.dims.every((d): d is number => typeof d === 'number' && d > 0) ? [...t.dims] : undefined;
}

function sameDims(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);
}

/** [1, H, W, 3] float32: the NHWC RGB input both MediaPipe layouts take. */
function nhwcImage(
  inputs: readonly OnnxValueInfo[],
): { t: OnnxValueInfo; h: number; w: number } | string {
  if (inputs.length !== 1) return `${inputs.length} inputs, not one`;
  const t = inputs[0] as OnnxValueInfo;
  const d = fixedDims(t);
  if (d === undefined || d.length !== 4 || d[0] !== 1 || d[3] !== 3 || t.elemType !== 'float32') {
    return `input '${t.name}' is not float32 [1,H,W,3]`;
  }
  return { t, h: d[1] as number, w: d[2] as number };
}

function within01(r: ObservedRange | undefined): boolean {
  // No observation (the caller has none): shapes decide alone.
  return r === undefined || (r.min >= 0 && r.max <= 1);
}

function blazepose(
  inputs: readonly OnnxValueInfo[],
  outputs: readonly OnnxValueInfo[],
  ranges: ReadonlyMap<string, ObservedRange>,
): BlazeposeLayout | string {
  const img = nhwcImage(inputs);
  if (typeof img === 'string') return img;
  const { h, w } = img;
  if (h !== w || h % 4 !== 0) return `input ${h}x${w} is not a square multiple of 4`;
  if (outputs.length !== 5) return `${outputs.length} outputs, not 5`;
  const floats = outputs.filter((o) => o.elemType === 'float32');
  if (floats.length !== 5) return 'not every output is float32';
  // Heatmaps fix the landmark count; every other output is then found by its exact shape.
  const heatmaps = floats.find((o) => {
    const d = fixedDims(o);
    return d?.length === 4 && d[0] === 1 && d[1] === h / 4 && d[2] === w / 4;
  });
  const landmarkCount = heatmaps ? (fixedDims(heatmaps)?.[3] ?? 0) : 0;
  if (heatmaps === undefined || landmarkCount < BLAZEPOSE_BODY_LANDMARKS) {
    return `no heatmaps [1,${h / 4},${w / 4},L] with L >= ${BLAZEPOSE_BODY_LANDMARKS}`;
  }
  const find = (dims: number[]): OnnxValueInfo | undefined =>
    floats.find((o) => o !== heatmaps && sameDims(fixedDims(o), dims));
  const landmarks = find([1, landmarkCount * 5]);
  const personScore = find([1, 1]);
  const segmentation = find([1, h, w, 1]);
  const worldLandmarks = find([1, landmarkCount * 3]);
  if (!landmarks || !personScore || !segmentation || !worldLandmarks) {
    return `outputs are not [1,${landmarkCount * 5}], [1,1], [1,${h},${w},1], heatmaps, [1,${landmarkCount * 3}]`;
  }
  if (!within01(ranges.get(personScore.name))) {
    return `output '${personScore.name}' [1,1] left 0..1 on the check images: not a probability`;
  }
  return {
    kind: 'blazepose-landmarks',
    input: img.t,
    landmarkCount,
    landmarks,
    personScore,
    segmentation,
    heatmaps,
    worldLandmarks,
  };
}

function selfie(
  inputs: readonly OnnxValueInfo[],
  outputs: readonly OnnxValueInfo[],
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

/**
 * Which MediaPipe layout the converted model has: the BlazePose GHUM landmark model (one square
 * NHWC input; landmarks [1,L*5], person score [1,1], segmentation [1,S,S,1], heatmaps
 * [1,S/4,S/4,L], world landmarks [1,L*3] with L >= 33) or selfie segmentation (input 256x256 or
 * 144x256 NHWC; one [1,H,W,1] probability map), else why neither fits.
 */
export function recognizeTfliteLayout(
  inputs: readonly OnnxValueInfo[],
  outputs: readonly OnnxValueInfo[],
  ranges: ReadonlyMap<string, ObservedRange> = new Map(),
): TfliteLayout {
  const pose = blazepose(inputs, outputs, ranges);
  if (typeof pose !== 'string') return pose;
  const seg = selfie(inputs, outputs, ranges);
  if (typeof seg !== 'string') return seg;
  return {
    kind: 'unrecognised',
    reasons: [`not BlazePose landmarks: ${pose}`, `not selfie segmentation: ${seg}`],
  };
}
