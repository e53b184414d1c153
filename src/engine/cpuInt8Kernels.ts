import * as fs from 'node:fs';

/**
 * Which integer kernels ONNX Runtime's CPU provider uses for INT8 (QDQ) graphs.
 *  - u8s8: uint8 activations x int8 weights. On x86-64 without VNNI (AVX2, or AVX-512 without
 *    VNNI) these multiply pairs into int16 with saturation, which visibly distorts some models
 *    (measured: INT8-vs-FP32 score drift 0.31 instead of 0.1 on an AVX2-only AMD EPYC).
 *  - u8u8: ONNX Runtime rewrites int8 weights to uint8 and uses kernels that do not saturate;
 *    slower, and only effective on x86-64 (session config `session.x64quantprecision`).
 * The HTP and arm64 CPUs (dot-product instructions) are not affected.
 */
export type CpuInt8Kernels = 'u8s8' | 'u8u8';

export interface CpuInt8Facts {
  readonly arch: string;
  /** /proc/cpuinfo flags of the first processor; empty where unknown. */
  readonly flags: ReadonlySet<string>;
}

/** True when this CPU's u8s8 kernels accumulate through saturating int16 pairs. */
export function u8s8Saturates(facts: CpuInt8Facts): boolean {
  if (facts.arch !== 'x64') return false;
  return !['avx512_vnni', 'avx_vnni', 'amx_int8'].some((f) => facts.flags.has(f));
}

/** The kernels `auto` picks: exact ones wherever the fast ones would saturate. */
export function autoInt8Kernels(facts: CpuInt8Facts): CpuInt8Kernels {
  return u8s8Saturates(facts) ? 'u8u8' : 'u8s8';
}

let hostFacts: CpuInt8Facts | undefined;

export function hostCpuFacts(): CpuInt8Facts {
  if (hostFacts) return hostFacts;
  let flags = new Set<string>();
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const line = info.split('\n').find((l) => /^flags\s*:/.test(l));
    if (line) flags = new Set(line.replace(/^flags\s*:\s*/, '').split(/\s+/));
  } catch {
    // No /proc (not Linux): no flags known, so x86-64 is assumed to saturate, the safe side.
  }
  hostFacts = { arch: process.arch, flags };
  return hostFacts;
}

/** ONNX Runtime session config entries that select the kernels. */
export function int8SessionConfig(kernels: CpuInt8Kernels): Record<string, string> {
  return kernels === 'u8u8' ? { 'session.x64quantprecision': '1' } : {};
}
