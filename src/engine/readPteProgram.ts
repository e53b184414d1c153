/**
 * A bounded reader for what an ExecuTorch program (.pte) says about itself: per method, its
 * inputs and outputs (shapes, element types) and its instructions, which is where ExecuTorch
 * records placement: a DelegateCall hands part of the graph to a backend (XnnpackBackend,
 * QnnBackend, ...) and a KernelCall runs one operator on ExecuTorch's own CPU kernels.
 *
 * A .pte file is a flatbuffer of ExecuTorch's schema (schema/program.fbs in the `executorch`
 * wheel, file identifier "ET12"), usually followed by segments (weights, delegate blobs) that are
 * never read here. Tables are visited by slot number in schema declaration order; the walk is
 * bounded as every flatbuffer walk of ours is (flatbufferReader.ts), so a corrupt or hostile file
 * ends in a PteFormatError naming the file and what was wrong.
 *
 * Why not ExecuTorch's runtime: it reports which backends a method uses, not how many of its
 * instructions each takes nor which operators stay on the CPU kernels; and this runs in the
 * import command and in the engine's placement report alike, with or without the runtime.
 */
import * as fs from 'node:fs';
import { bufferSource, type ByteSource, withFileSource } from '../util/byteSource';
import { Budget, Flatbuffer, type Table } from '../util/flatbufferReader';

export class PteFormatError extends Error {
  override readonly name = 'PteFormatError';
}

/** scalar_type.fbs ScalarType values, by the names the manifests use. */
const SCALAR_TYPES: readonly string[] = [
  'uint8',
  'int8',
  'int16',
  'int32',
  'int64',
  'float16',
  'float32',
  'float64',
  'complex32',
  'complex64',
  'complex128',
  'bool',
];

export interface PteTensor {
  /** Programs keep no names: input_<i> / output_<i>, as the engine names them. */
  readonly name: string;
  readonly dims: readonly number[];
  /** `type(<n>)` for a scalar type this reader has no name for. */
  readonly elemType: string;
}

export interface PteCallCount {
  /** The backend's registered name (DelegateCall) or `<operator>.<overload>` (KernelCall). */
  readonly name: string;
  readonly calls: number;
}

export interface PteMethod {
  readonly name: string;
  /** Tensor inputs and outputs; a non-tensor value (an int, a list) is `elemType` 'value'. */
  readonly inputs: readonly PteTensor[];
  readonly outputs: readonly PteTensor[];
  /** DelegateCall instructions per backend, in the order the backends first appear. */
  readonly delegateCalls: readonly PteCallCount[];
  /** KernelCall instructions per operator: the work left to ExecuTorch's CPU kernels. */
  readonly kernelCalls: readonly PteCallCount[];
  /** Every instruction of the method's chains (moves and frees included). */
  readonly instructions: number;
}

export interface PteProgramInfo {
  /** The file identifier ("ET12"): the schema version. */
  readonly identifier: string;
  readonly methods: readonly PteMethod[];
}

export const PTE_READ_LIMITS = {
  /** Tables and vector entries visited in one file (a large program has tens of thousands). */
  entries: 2_000_000,
  stringBytes: 1 << 16,
};

// KernelTypes union: 1 Null, 2 Int, 3 Bool, 4 Double, 5 Tensor, ...
const KERNEL_TYPE_TENSOR = 5;
// InstructionArguments union: 1 KernelCall, 2 DelegateCall, 3 MoveCall, 4 JumpFalseCall, 5 FreeCall.
const KERNEL_CALL = 1;
const DELEGATE_CALL = 2;

function tensorAt(plan: Table, values: number, valueIndex: number, name: string): PteTensor {
  if (!Number.isInteger(valueIndex) || valueIndex < 0 || valueIndex >= values) {
    throw new PteFormatError(`${name} is value ${valueIndex}, but the plan has ${values} values`);
  }
  // ExecutionPlan: name 0, container_meta_type 1, values 2; EValue: val (union type 0, value 1).
  const value = plan.tableAt(2, 'values', valueIndex);
  const u = value?.union(0, 'val');
  if (u === undefined || u.type !== KERNEL_TYPE_TENSOR || u.value === undefined) {
    return { name, dims: [], elemType: 'value' };
  }
  // Tensor: scalar_type 0, storage_offset 1, sizes 2.
  const type = u.value.u8(0, 'scalar_type');
  return { name, dims: u.value.ints(2, 'sizes'), elemType: SCALAR_TYPES[type] ?? `type(${type})` };
}

function countInto(counts: Map<string, number>, name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}

function asList(counts: Map<string, number>): PteCallCount[] {
  return [...counts].map(([name, calls]) => ({ name, calls }));
}

function readMethod(plan: Table): PteMethod {
  // ExecutionPlan: name 0, container_meta_type 1, values 2, inputs 3, outputs 4, chains 5,
  // operators 6, delegates 7.
  const name = plan.string(0, 'name');
  const values = plan.length(2, 'values');
  const inputs = plan.ints(3, 'inputs').map((v, i) => tensorAt(plan, values, v, `input_${i}`));
  const outputs = plan.ints(4, 'outputs').map((v, i) => tensorAt(plan, values, v, `output_${i}`));
  // Operator: name 0, overload 1. BackendDelegate: id 0.
  const operators = plan.tables(6, 'operators').map((o) => {
    const overload = o.string(1, 'overload');
    return `${o.string(0, 'name')}${overload ? `.${overload}` : ''}`;
  });
  const backends = plan.tables(7, 'delegates').map((d) => d.string(0, 'id'));
  const delegated = new Map<string, number>();
  const kernels = new Map<string, number>();
  let instructions = 0;
  // Chain: inputs 0, outputs 1, instructions 2. Instruction: instr_args (union type 0, value 1).
  for (const chain of plan.tables(5, 'chains')) {
    for (const ins of chain.tables(2, 'instructions')) {
      instructions++;
      const u = ins.union(0, 'instr_args');
      if (u.value === undefined) continue;
      // KernelCall: op_index 0; DelegateCall: delegate_index 0.
      const index = u.value.u32(0, 'index');
      if (u.type === KERNEL_CALL) {
        const op = operators[index];
        if (op === undefined) {
          throw new PteFormatError(
            `method ${name}: a kernel call names operator ${index} of ${operators.length}`,
          );
        }
        countInto(kernels, op);
      } else if (u.type === DELEGATE_CALL) {
        const backend = backends[index];
        if (backend === undefined) {
          throw new PteFormatError(
            `method ${name}: a delegate call names delegate ${index} of ${backends.length}`,
          );
        }
        countInto(delegated, backend);
      }
    }
  }
  return {
    name,
    inputs,
    outputs,
    delegateCalls: asList(delegated),
    kernelCalls: asList(kernels),
    instructions,
  };
}

function readProgram(src: ByteSource): PteProgramInfo {
  const budget = new Budget(PTE_READ_LIMITS, (m) => new PteFormatError(m));
  const fb = new Flatbuffer(src, 0, src.length, budget, 'the program');
  const identifier = fb.identifier();
  if (!/^ET\d\d$/.test(identifier)) {
    throw new PteFormatError(`no ExecuTorch file identifier ("ET12") at byte 4`);
  }
  // Program: version 0, execution_plan 1.
  const program = fb.root('program');
  const methods = program.tables(1, 'execution_plan').map(readMethod);
  if (methods.length === 0) throw new PteFormatError('the program has no method');
  return { identifier, methods };
}

function withSource<T>(source: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof PteFormatError) {
      throw new PteFormatError(`${source}: not a readable ExecuTorch program (${e.message})`);
    }
    throw e;
  }
}

/** Reads a program held in memory; `source` names it in errors. */
export function parsePteProgram(bytes: Uint8Array, source = 'program'): PteProgramInfo {
  return withSource(source, () => readProgram(bufferSource(bytes)));
}

/** True when the file starts as an ExecuTorch program does (identifier "ETxx" at byte 4). */
export function isPteFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(8);
    return fs.readSync(fd, head, 0, 8, 0) === 8 && /^ET\d\d$/.test(head.toString('latin1', 4, 8));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Reads `file` (bounded reads; the weights between tables are skipped). Throws PteFormatError
 * naming the file and what is wrong when it is not an ExecuTorch program.
 */
export function readPteProgram(file: string): PteProgramInfo {
  return withFileSource(
    file,
    (m) => new PteFormatError(m),
    (src) => withSource(file, () => readProgram(src)),
  );
}

/** The calls of `method` left to ExecuTorch's CPU kernels, all operators together. */
export function kernelCallCount(method: PteMethod): number {
  return method.kernelCalls.reduce((s, k) => s + k.calls, 0);
}

/** The method the engine runs: `forward`. */
export function forwardMethod(info: PteProgramInfo): PteMethod | undefined {
  return info.methods.find((m) => m.name === 'forward');
}
