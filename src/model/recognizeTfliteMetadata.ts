/**
 * Recognises a semantic segmentation model by what its TFLite metadata says (the way TensorFlow
 * Lite's own image segmenter reads a file): one image input with its normalization, and one
 * output whose class axis the labels file of that output names, one label per class. The
 * converted ONNX model's tensors must agree with the TFLite file's (tf2onnx keeps names, shapes
 * and the NHWC layout).
 */
import type { MetadataSemanticLayout } from '../families/modelFamily';
import type { OnnxValueInfo } from './readOnnxModel';
import {
  type TfliteModelInfo,
  type TfliteTensorMetadata,
  TfliteFormatError,
  tfliteTensorLabels,
} from './readTfliteModel';

/** mono8 label images: the class index of a pixel must fit in a byte. */
export const MAX_SEMANTIC_CLASSES = 256;

export type { MetadataSemanticLayout };

function fixedDims(t: OnnxValueInfo): number[] | undefined {
  return t.dims.every((d): d is number => typeof d === 'number' && d > 0) ? [...t.dims] : undefined;
}

function dimsText(d: readonly (number | string)[]): string {
  return `[${d.join(',')}]`;
}

/** One or three finite values (one: every channel), std positive; else why not. */
function perChannel(
  values: readonly number[],
  what: string,
  positive: boolean,
): [number, number, number] | string {
  if (values.length !== 1 && values.length !== 3) {
    return `NormalizationOptions ${what} has ${values.length} values, not 1 or 3`;
  }
  if (!values.every((v) => Number.isFinite(v) && (!positive || v > 0))) {
    return `NormalizationOptions ${what} [${values.join(', ')}] is not ${positive ? 'positive' : 'finite'}`;
  }
  const [a, b, c] = values.length === 1 ? [values[0], values[0], values[0]] : values;
  return [a as number, b as number, c as number];
}

function inputPart(
  tflite: TfliteModelInfo,
  meta: TfliteTensorMetadata,
  inputs: readonly OnnxValueInfo[],
):
  | Pick<MetadataSemanticLayout, 'input' | 'width' | 'height' | 'mean' | 'std' | 'rgbStated'>
  | string {
  const [t] = inputs;
  if (inputs.length !== 1 || t === undefined) return `${inputs.length} inputs, not one`;
  const d = fixedDims(t);
  if (d === undefined || d.length !== 4 || d[0] !== 1 || d[3] !== 3) {
    return `input '${t.name}' ${dimsText(t.dims)} is not a fixed [1,H,W,3] image`;
  }
  if (t.elemType !== 'float32') {
    return `input '${t.name}' is ${t.elemType}: only float inputs are imported from metadata`;
  }
  const [orig] = tflite.inputs;
  if (orig !== undefined && orig.dims.join(',') !== d.join(',')) {
    return `input '${t.name}' is ${dimsText(d)} in ONNX but ${dimsText(orig.dims)} in the TFLite file`;
  }
  const c = meta.content;
  if (c?.kind !== 'image') {
    return `the input's metadata describes ${c === undefined ? 'no content' : `${c.kind} content`}, not an image (ImageProperties)`;
  }
  if (c.colorSpace !== 'rgb' && c.colorSpace !== 'unknown') {
    return `the input's metadata says colour space ${c.colorSpace}, not RGB`;
  }
  const n = meta.normalization;
  if (n === undefined) {
    return "the input's metadata has no NormalizationOptions (mean, std): how to scale pixels is unknown";
  }
  const mean = perChannel(n.mean, 'mean', false);
  if (typeof mean === 'string') return mean;
  const std = perChannel(n.std, 'std', true);
  if (typeof std === 'string') return std;
  return {
    input: t,
    height: d[1] as number,
    width: d[2] as number,
    mean,
    std,
    rgbStated: c.colorSpace === 'rgb',
  };
}

function outputPart(
  tflite: TfliteModelInfo,
  meta: TfliteTensorMetadata,
  outputs: readonly OnnxValueInfo[],
): Pick<MetadataSemanticLayout, 'output' | 'outputLayout' | 'labels' | 'labelsFile'> | string {
  const [t] = outputs;
  if (outputs.length !== 1 || t === undefined) return `${outputs.length} outputs, not one`;
  let found;
  try {
    found = tfliteTensorLabels(tflite, meta);
  } catch (e) {
    if (e instanceof TfliteFormatError) return e.message;
    throw e;
  }
  if (found === undefined) {
    return `the output's metadata names no labels file (associated file of type TENSOR_AXIS_LABELS)`;
  }
  const { labels, file } = found;
  const blank = labels.findIndex((l) => l.trim() === '');
  if (blank >= 0) return `${file}: line ${blank + 1} is blank (one label per class)`;
  if (labels.length < 2 || labels.length > MAX_SEMANTIC_CLASSES) {
    return `${file} has ${labels.length} labels: a segmentation model has 2..${MAX_SEMANTIC_CLASSES} classes`;
  }
  const d = fixedDims(t);
  const n = labels.length;
  if (t.elemType !== 'float32' || d === undefined || d.length !== 4 || d[0] !== 1) {
    return `output '${t.name}' is ${t.elemType} ${dimsText(t.dims)}, not float32 [1,H,W,${n}] class scores`;
  }
  const [orig] = tflite.outputs;
  if (orig !== undefined && orig.dims.join(',') !== d.join(',')) {
    return `output '${t.name}' is ${dimsText(d)} in ONNX but ${dimsText(orig.dims)} in the TFLite file`;
  }
  // TFLite is NHWC; the second axis is accepted for a file converted some other way.
  const outputLayout = d[3] === n ? 'NHWC' : d[1] === n ? 'NCHW' : undefined;
  if (outputLayout === undefined) {
    return `output '${t.name}' ${dimsText(d)} has no class axis of ${n} (the labels in ${file})`;
  }
  const [h, w] = outputLayout === 'NHWC' ? [d[1], d[2]] : [d[2], d[3]];
  if (h === 1 && w === 1) {
    return `output '${t.name}' ${dimsText(d)} scores the whole image (a classifier), not each pixel`;
  }
  return { output: t, outputLayout, labels, labelsFile: file };
}

/**
 * The semantic layout the TFLite metadata describes, or why the file does not describe one.
 * `inputs` and `outputs` are the converted ONNX model's.
 */
export function recognizeTfliteMetadata(
  tflite: TfliteModelInfo,
  inputs: readonly OnnxValueInfo[],
  outputs: readonly OnnxValueInfo[],
): MetadataSemanticLayout | string {
  const md = tflite.metadata;
  if (md === undefined) return 'the file has no TFLite metadata';
  const [inMeta] = md.inputs;
  const [outMeta] = md.outputs;
  if (md.inputs.length !== 1 || inMeta === undefined) {
    return `the metadata describes ${md.inputs.length} inputs, not one`;
  }
  if (md.outputs.length !== 1 || outMeta === undefined) {
    return `the metadata describes ${md.outputs.length} outputs, not one`;
  }
  const input = inputPart(tflite, inMeta, inputs);
  if (typeof input === 'string') return input;
  const output = outputPart(tflite, outMeta, outputs);
  if (typeof output === 'string') return output;
  return { kind: 'metadata-semantic', ...input, ...output };
}
