/**
 * An ExecuTorch program's forward method described as the ONNX reader describes a model
 * (src/model/readOnnxModel.ts's OnnxModelInfo), so manifests are derived and checked against a
 * program exactly as against an ONNX file.
 */
import {
  forwardMethod,
  isPteFile,
  PteFormatError,
  type PteMethod,
  readPteProgram,
} from '../../engine/readPteProgram';
import { type OnnxModelInfo, readOnnxModel } from '../../model/readOnnxModel';
import { UsageError } from '../cliErrors';

/** The program's `forward` method, or a UsageError naming what is wrong with the file. */
export function readForwardMethod(program: string): PteMethod {
  let method;
  try {
    method = forwardMethod(readPteProgram(program));
  } catch (e) {
    if (e instanceof PteFormatError) throw new UsageError(e.message);
    throw e;
  }
  if (!method) throw new UsageError(`${program}: the program has no method 'forward'`);
  return method;
}

/** A forward method as the ONNX readers describe a model, for deriveManifest. */
export function describeMethod(method: PteMethod, metadata: Record<string, string>): OnnxModelInfo {
  return {
    irVersion: 0,
    producerName: 'executorch',
    producerVersion: '',
    opsets: [],
    inputs: method.inputs.map((t) => ({ name: t.name, elemType: t.elemType, dims: t.dims })),
    outputs: method.outputs.map((t) => ({ name: t.name, elemType: t.elemType, dims: t.dims })),
    metadata,
    nodeCount: method.instructions,
    opTypes: {},
    initializerCount: 0,
    externalDataFiles: [],
  };
}

/** What a model file says about itself, whichever runtime runs it (metadata: ONNX's own). */
export function readModelFileInfo(file: string): OnnxModelInfo {
  return isPteFile(file) ? describeMethod(readForwardMethod(file), {}) : readOnnxModel(file);
}
