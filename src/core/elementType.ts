import { EngineError, EngineErrorCode } from './engineError';

/**
 * The one list of tensor element types. Model manifests declare these names (those the engine
 * returns, RETURNED_ELEMENT_TYPES); the addon reports
 * ONNX codes, which `elementTypeFromCode` maps through ONNX_CODES and refuses when unknown (never
 * a cast). A leaf module, so config and engine alike can import it.
 */
export const ELEMENT_TYPES = [
  'float32',
  'float16',
  'float64',
  'uint8',
  'int8',
  'uint16',
  'int16',
  'int32',
  'int64',
  'bool',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** ONNX TensorProto.DataType, which ONNX Runtime's ONNXTensorElementDataType repeats. */
const ONNX_CODES: Readonly<Record<ElementType, number>> = {
  float32: 1,
  uint8: 2,
  int8: 3,
  uint16: 4,
  int16: 5,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
};

const BY_CODE: ReadonlyMap<number, ElementType> = new Map(
  ELEMENT_TYPES.map((t) => [ONNX_CODES[t], t] as const),
);

/** The element types the preprocessing can write into a model input. */
export const FED_ELEMENT_TYPES = [
  'float32',
  'uint8',
  'int8',
] as const satisfies readonly ElementType[];
export type FedElementType = (typeof FED_ELEMENT_TYPES)[number];

/**
 * The element types run() returns (float16 arrives as a Float32Array, widened on the worker), a
 * superset of the fed ones: the types a manifest may declare for a model tensor.
 */
export const RETURNED_ELEMENT_TYPES = [
  'float32',
  'float16',
  'uint8',
  'int8',
  'int32',
  'int64',
  'bool',
] as const satisfies readonly ElementType[];
export type ReturnedElementType = (typeof RETURNED_ELEMENT_TYPES)[number];

export function isReturnedElementType(t: ElementType): t is ReturnedElementType {
  return (RETURNED_ELEMENT_TYPES as readonly string[]).includes(t);
}

export function onnxElementCode(type: ElementType): number {
  return ONNX_CODES[type];
}

/** Name of an ONNX element code; throws EngineError `errorCode` naming `tensor` when unknown. */
export function elementTypeFromCode(
  code: number,
  tensor: string,
  errorCode: EngineErrorCode,
): ElementType {
  const t = BY_CODE.get(code);
  if (t === undefined) {
    throw new EngineError(
      errorCode,
      `${tensor} has ONNX element type ${code}, which the engine does not support`,
    );
  }
  return t;
}

export function isFedElementType(t: ElementType): t is FedElementType {
  return (FED_ELEMENT_TYPES as readonly string[]).includes(t);
}
