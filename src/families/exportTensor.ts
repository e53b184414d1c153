/**
 * A model file's tensors as the importers read them (an ONNX file's value infos, the same shape
 * as src/model/readOnnxModel's OnnxValueInfo), and how one becomes a manifest's tensor spec.
 */
import type { TensorSpec } from './manifestParts';

export interface ExportTensor {
  readonly name: string;
  readonly elemType: string;
  /** A number for a fixed dimension, the symbol for a named one, -1 for an unnamed dynamic one. */
  readonly dims: readonly (number | string)[];
}

/** A fixed dimension's size, undefined for a dynamic one. */
export function fixedDim(d: number | string | undefined): number | undefined {
  return typeof d === 'number' && d > 0 ? d : undefined;
}

/** Manifest dims: the file's fixed dims, -1 where the file leaves a dimension dynamic. */
export function specOf(t: ExportTensor): TensorSpec {
  return {
    name: t.name,
    dims: t.dims.map((d) => fixedDim(d) ?? -1),
    // Unchecked here on purpose: the derived manifest goes through parseModelManifest, whose
    // schema refuses a type the engine cannot return, naming the tensor.
    dtype: t.elemType as TensorSpec['dtype'],
  };
}

/** An exported model file as the importers see it (ONNX: its graph's inputs, outputs, metadata). */
export interface ExportedModel {
  readonly inputs: readonly ExportTensor[];
  readonly outputs: readonly ExportTensor[];
  readonly metadata: Readonly<Record<string, string>>;
}

/** The model's output named `name`, if it has one. */
export function exportOutput(model: ExportedModel, name: string): ExportTensor | undefined {
  return model.outputs.find((o) => o.name === name);
}
