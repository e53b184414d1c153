import * as fs from 'node:fs';
import { isPteFile } from '../engine/readPteProgram';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineOptionsInput } from '../engine/engineOptions';
import type { ModelManifest } from '../config/modelManifest';
import { foldInputQuantize } from '../model/foldInputQuantize';
import { manifestEngineOptions } from './manifestEngineOptions';
import { RuntimeChoices } from './runtimeChoices';

/** How an INT8 model is fed: what was decided and why (for logs and benchmarks). */
export type InputFeed =
  | {
      readonly fed: 'quantized';
      readonly type: 'uint8' | 'int8';
      readonly scale: number;
      readonly zeroPoint: number;
      /** The QuantizeLinear node the engine's preprocessing replaces. */
      readonly removedNode: string;
    }
  | { readonly fed: 'float'; readonly reason: string };

export interface PreparedEngineOptions {
  readonly options: EngineOptionsInput;
  readonly feed: InputFeed;
  /** The manifest as the loaded model must match it (input dtype uint8/int8 when quantized). */
  readonly manifest: ModelManifest;
  /** Removes the rewritten model file once the session is loaded (idempotent). */
  release(): void;
}

/**
 * Engine options for a manifest, feeding an INT8 QDQ graph quantized bytes when it can (see
 * foldInputQuantize): `choices.int8Input` 'quantized' (the default) rewrites the model so that
 * its input QuantizeLinear is done by the fused preprocessing, 'float' keeps the float input (to
 * compare). FP32 models, graphs without a foldable input quantize, and HTP context binaries (the
 * compiled graph has its input type fixed) keep the float path, with the reason in `feed`.
 *
 * The rewritten model goes to a private temporary file that `release()` deletes: the addon loads
 * models by path, and ONNX Runtime has read it completely once the session exists.
 */
export async function prepareEngineOptions(
  m: ModelManifest,
  choices: RuntimeChoices,
): Promise<PreparedEngineOptions> {
  const options = manifestEngineOptions(m, choices);
  const keep = (reason: string): PreparedEngineOptions => ({
    options,
    feed: { fed: 'float', reason },
    manifest: m,
    release: () => undefined,
  });
  if (choices.precision !== 'int8') return keep('fp32 model');
  if (m.input.dtype !== 'float32') return keep(`the model takes ${m.input.dtype} already`);
  if ((choices.int8Input ?? 'quantized') === 'float') return keep('int8_input is float');
  if (options.htp?.context_cache !== undefined)
    return keep('an HTP context binary fixes the input type');
  if (isPteFile(options.model)) return keep('an ExecuTorch program quantizes its own input');
  // Async reads and writes: a 30 MB model must not stall the other pipelines of the process; the
  // fold itself is a synchronous walk of ~100 ms at most (HRNet).
  const folded = foldInputQuantize(await fs.promises.readFile(options.model), options.model);
  if (!folded.folded) return keep(folded.reason);

  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'htp-perception-'));
  const file = path.join(dir, `${path.basename(options.model, '.onnx')}.quantized-input.onnx`);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await fs.promises.writeFile(file, folded.bytes, { mode: 0o600 });
  } catch (e) {
    release();
    throw e;
  }
  const quantization = {
    scale: folded.quantization.scale,
    zeroPoint: folded.quantization.zeroPoint,
  };
  return {
    options: {
      ...options,
      model: file,
      preprocess: { ...options.preprocess, inputQuantization: quantization },
    },
    feed: { fed: 'quantized', type: folded.type, ...quantization, removedNode: folded.removedNode },
    manifest: { ...m, input: { ...m.input, dtype: folded.type, quantization } },
    release,
  };
}
