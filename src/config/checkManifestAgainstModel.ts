import { ConfigError } from '../core/configError';
import {
  declaredInputs,
  declaredOutputs,
  type ElementType,
  type ModelManifest,
  type TensorSpec,
} from './modelManifest';

/**
 * What the engine reports about one model input or output, as plain data (the engine is a
 * separate module; it maps ONNX Runtime's type info onto this). Dims: -1 or a symbolic name (any
 * string) for a dimension the model leaves dynamic.
 */
export interface IntrospectedTensor {
  readonly name: string;
  readonly dims: readonly (number | string)[];
  readonly type: ElementType;
}

export interface IntrospectedModel {
  readonly inputs: readonly IntrospectedTensor[];
  readonly outputs: readonly IntrospectedTensor[];
}

/** A manifest that does not describe the model it stands beside. */
export class ManifestMismatchError extends ConfigError {
  constructor(
    readonly source: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${source}: ${field}: ${detail}`);
  }
}

function dimsText(dims: readonly (number | string)[]): string {
  return `[${dims.join(', ')}]`;
}

function compare(source: string, field: string, want: TensorSpec, got: IntrospectedTensor): void {
  if (got.dims.length !== want.dims.length) {
    throw new ManifestMismatchError(
      source,
      `${field}.dims`,
      `tensor '${want.name}' has rank ${got.dims.length} ${dimsText(got.dims)}, manifest says rank ${want.dims.length} ${dimsText(want.dims)}`,
    );
  }
  want.dims.forEach((w, i) => {
    const g = got.dims[i];
    // A dynamic dimension on either side is settled at run time, where the heads read real dims.
    if (w === -1 || typeof g === 'string' || g === -1) return;
    if (g !== w) {
      throw new ManifestMismatchError(
        source,
        `${field}.dims[${i}]`,
        `tensor '${want.name}' is ${dimsText(got.dims)}, manifest says ${dimsText(want.dims)}`,
      );
    }
  });
  if (got.type !== want.dtype) {
    throw new ManifestMismatchError(
      source,
      `${field}.dtype`,
      `tensor '${want.name}' is ${got.type}, manifest says ${want.dtype}`,
    );
  }
}

/**
 * Checks that the model's introspected inputs and outputs are the ones the manifest declares
 * (names, ranks, fixed dims, element types). Extra model outputs the manifest does not use are
 * allowed; a declared tensor the model lacks is not. Throws ManifestMismatchError naming the
 * manifest field and the mismatch.
 */
export function checkManifestAgainstModel(
  m: ModelManifest,
  model: IntrospectedModel,
  source = m.manifestPath,
): void {
  const groups: [string, { field: string; spec: TensorSpec }[], readonly IntrospectedTensor[]][] = [
    ['input', declaredInputs(m), model.inputs],
    ['output', declaredOutputs(m), model.outputs],
  ];
  for (const [kind, declared, actual] of groups) {
    for (const { field, spec } of declared) {
      const got = actual.find((t) => t.name === spec.name);
      if (got === undefined) {
        throw new ManifestMismatchError(
          source,
          `${field}.name`,
          `model has no ${kind} '${spec.name}' (its ${kind}s: ${actual.map((t) => t.name).join(', ') || 'none'})`,
        );
      }
      compare(source, field, spec, got);
    }
  }
  if (model.inputs.length !== 1) {
    throw new ManifestMismatchError(
      source,
      'input',
      `model has ${model.inputs.length} inputs, one image input expected`,
    );
  }
}
