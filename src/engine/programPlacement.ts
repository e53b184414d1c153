/**
 * Where an ExecuTorch program's work runs, in the shape ONNX Runtime's placement record has
 * (provider -> count, and what the CPU took), read from the program's own instructions
 * (model/readPteProgram.ts): each DelegateCall hands a subgraph to one backend, each KernelCall
 * runs one operator on ExecuTorch's CPU kernels. ExecuTorch does not fall back silently: a
 * delegate that cannot initialise fails the load, so the record is what runs.
 */
import type { NativeSessionInfo } from './nativeAddon';
import { kernelCallCount, type PteMethod } from './readPteProgram';

/** The backend that runs on the Hexagon HTP; every other backend (XNNPACK, ...) is CPU work. */
export const HTP_BACKEND = 'QnnBackend';

/** The count of kernel calls, under this name beside the backends. */
export const KERNELS_PROVIDER = 'ExecuTorch kernels';

/**
 * The placement of `method` as the engine reports it: counts are instruction calls (a delegate
 * call covers a whole subgraph: its node count lives inside the backend's blob), and `cpuNodes`
 * lists every call whose work is on the CPU, kernels and non-HTP delegates alike, so
 * require_accelerator refuses a program that does not run on the HTP. `runtimeDelegates`: the
 * backends the runtime itself named; a disagreement with the program is said in the note.
 */
export function programPlacement(
  requested: string,
  method: PteMethod,
  runtimeDelegates: readonly string[],
): NativeSessionInfo['providers'] {
  const counts = method.delegateCalls.map((d) => ({ provider: d.name, nodes: d.calls }));
  const kernelCalls = kernelCallCount(method);
  if (kernelCalls > 0) counts.push({ provider: KERNELS_PROVIDER, nodes: kernelCalls });
  const cpuNodes = [
    ...method.delegateCalls
      .filter((d) => d.name !== HTP_BACKEND)
      .map((d) => ({ name: `${d.calls} delegate call(s)`, opType: d.name })),
    ...method.kernelCalls.map((k) => ({ name: `${k.calls} kernel call(s)`, opType: k.name })),
  ];
  const recorded = method.delegateCalls.map((d) => d.name).sort();
  const named = [...runtimeDelegates].sort();
  const notes: string[] = [];
  if (recorded.join() !== named.join()) {
    notes.push(
      `the runtime names the delegates ${named.join(', ') || 'none'}, the instructions call ${recorded.join(', ') || 'none'}`,
    );
  }
  if (requested === 'htp' && !method.delegateCalls.some((d) => d.name === HTP_BACKEND)) {
    notes.push(`the program delegates nothing to ${HTP_BACKEND}: all of it runs on the CPU`);
  }
  return {
    requested,
    assignmentKnown: true,
    note: notes.join('; '),
    counts,
    cpuNodes,
  };
}
