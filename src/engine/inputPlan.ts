/**
 * How the engine feeds a model, decided once from the model's own description (the addon's
 * inspectModel) and the options: which input, its layout, size, element type and quantization,
 * and which symbolic dimensions to pin. Pure: the addon only checks that the session it loads
 * agrees with the plan.
 */
import type { Quantization } from '../core/tensor';
import type { ElementType, FedElementType } from '../core/elementType';
import { FED_ELEMENT_TYPES, isFedElementType, isReturnedElementType } from '../core/elementType';
import { EngineError } from '../core/engineError';
import type { EngineOptions } from './engineOptions';

export interface ModelTensor {
  readonly name: string;
  /** -1 where the model leaves a dimension dynamic. */
  readonly dims: readonly number[];
  /** Per dimension, '' when fixed or unnamed. */
  readonly symbolicDims: readonly string[];
  readonly type: ElementType;
}

export interface InputPlan {
  readonly name: string;
  readonly type: FedElementType;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
  readonly layout: 'nchw' | 'nhwc';
  /** Images per run: the input's leading axis (options.batch). */
  readonly batch: number;
  /** For uint8 / int8 inputs: q = round(value / scale) + zeroPoint. */
  readonly quantization?: Quantization;
  /** Symbolic dimensions to pin before the real session is created (name -> size). */
  readonly freeDimensions: Readonly<Record<string, number>>;
}

/**
 * Quantization of an integer input whose manifest gives none: raw pixels (0..255) for uint8 with
 * mean 0 / std 255, and the same range shifted for int8. ORT's public API does not expose the
 * graph's Q/DQ initializers, so this guess is all that can be done without a manifest entry.
 */
const DEFAULT_INPUT_QUANTIZATION: Readonly<Record<'uint8' | 'int8', Quantization>> = {
  uint8: { scale: 1 / 255, zeroPoint: 0 },
  int8: { scale: 1 / 255, zeroPoint: -128 },
};

const isChannelAxis = (d: number | undefined): boolean => d === 1 || d === 3;

function shape(dims: readonly number[]): string {
  return `[${dims.join(',')}]`;
}

export function planInput(
  o: EngineOptions,
  inputs: readonly ModelTensor[],
  outputs: readonly ModelTensor[],
): InputPlan {
  const fail = (m: string): never => {
    throw new EngineError('ERR_INPUT_MISMATCH', m);
  };
  const model = o.model;
  const input = o.inputName
    ? inputs.find((i) => i.name === o.inputName)
    : inputs.find((i) => i.dims.length === 4);
  if (!input) {
    return fail(
      o.inputName
        ? `model ${model} has no input named ${o.inputName}`
        : `model ${model} has no rank-4 image input`,
    );
  }
  if (inputs.length !== 1) {
    fail(`model ${model} has ${inputs.length} inputs; the engine feeds exactly one image input`);
  }
  const d = input.dims;
  if (d.length !== 4) {
    fail(`input ${input.name} has rank ${d.length} ${shape(d)}, expected 4 (image)`);
  }
  const batch = o.batch;
  if (d[0] !== batch && d[0] !== -1) {
    fail(
      d[0] === 1
        ? `model ${model} takes batch 1, not ${batch}: make a batch-${batch} copy with 'htp-perception model import MODEL --batch ${batch}'`
        : `input ${input.name} has batch ${d[0]}, expected ${batch}`,
    );
  }

  let layout: 'nchw' | 'nhwc';
  if (o.preprocess.layout !== 'auto') layout = o.preprocess.layout;
  else if (isChannelAxis(d[1])) layout = 'nchw';
  else if (isChannelAxis(d[3])) layout = 'nhwc';
  else {
    return fail(
      `input ${input.name} ${shape(d)} has no 1- or 3-channel axis; set preprocess.layout`,
    );
  }
  const axes = layout === 'nchw' ? { c: 1, h: 2, w: 3 } : { c: 3, h: 1, w: 2 };
  const ch = d[axes.c]!;
  if (!isChannelAxis(ch) && ch !== -1) {
    fail(
      `input ${input.name} ${shape(d)} has ${ch} channels for layout ${layout}, expected 1 or 3`,
    );
  }
  const pick = (modelSize: number, wanted: number | undefined, what: string): number => {
    if (modelSize > 0 && wanted !== undefined && modelSize !== wanted) {
      fail(
        `input ${input.name} ${shape(d)} has ${what} ${modelSize} but the manifest says ${wanted}`,
      );
    }
    if (modelSize > 0) return modelSize;
    if (wanted !== undefined) return wanted;
    return fail(
      `input ${input.name} has a dynamic ${what}; give preprocess.width and preprocess.height`,
    );
  };
  const width = pick(d[axes.w]!, o.preprocess.width, 'width');
  const height = pick(d[axes.h]!, o.preprocess.height, 'height');
  const channels = ch === 1 ? 1 : 3;

  const type = input.type;
  if (!isFedElementType(type)) {
    return fail(
      `input ${input.name} has element type ${type}; the engine feeds ${FED_ELEMENT_TYPES.join(', ')}`,
    );
  }
  for (const out of outputs) {
    if (!isReturnedElementType(out.type)) {
      fail(`output ${out.name} has element type ${out.type}, which the engine does not return`);
    }
  }

  // Static shapes everywhere: the HTP compiles static graphs only (a symbolic batch makes the
  // provider silently decline every node), and on the CPU they give the kernels, and results bit
  // for bit, of the same model exported with fixed shapes.
  const fixed = new Map<number, number>([
    [0, batch],
    [axes.c, channels],
    [axes.h, height],
    [axes.w, width],
  ]);
  const freeDimensions: Record<string, number> = {};
  input.symbolicDims.forEach((name, i) => {
    const size = fixed.get(i);
    if (name && d[i]! < 0 && size !== undefined) freeDimensions[name] = size;
  });

  const quantization =
    type === 'float32'
      ? undefined
      : (o.preprocess.inputQuantization ?? DEFAULT_INPUT_QUANTIZATION[type]);
  return {
    name: input.name,
    type,
    width,
    height,
    channels,
    layout,
    batch,
    ...(quantization ? { quantization } : {}),
    freeDimensions,
  };
}
