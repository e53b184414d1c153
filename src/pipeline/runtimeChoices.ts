/**
 * How a node wants a model run (processor, precision, threads, HTP options, INT8 feed): what the
 * parameters decide, before a manifest turns it into engine options.
 */
import type { EngineOptionsInput } from '../engine/engineOptions';

import type { Precision } from '../core/precisions';

export type { Precision, QuantizedPrecision } from '../core/precisions';

export interface RuntimeChoices {
  readonly provider: 'cpu' | 'htp' | 'gpu';
  /** provider gpu: the QNN GPU backend's options. */
  readonly gpu?: EngineOptionsInput['gpu'];
  readonly precision: Precision;
  /** Intra-op threads; 0 lets ONNX Runtime choose. */
  readonly threads: number;
  readonly htp?: EngineOptionsInput['htp'];
  /** CPU INT8 kernels (default auto: see src/engine/cpuInt8Kernels.ts). */
  readonly cpuInt8Kernels?: EngineOptionsInput['cpuInt8Kernels'];
  /**
   * INT8 models only: 'quantized' (default) feeds uint8/int8 straight into the graph when its input
   * QuantizeLinear can be folded into preprocessing (prepareEngineOptions); 'float' keeps the
   * float input that ONNX Runtime quantizes (for comparisons).
   */
  readonly int8Input?: Int8Input;
  /** Load a model file that does not match its manifest's SHA-256 (default: refuse it). */
  readonly allowModelMismatch?: boolean;
}

export type Int8Input = 'quantized' | 'float';
