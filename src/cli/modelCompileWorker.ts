/**
 * Child process of `model compile` (see runCompileWorker): the QNN libraries print to the
 * process's stdout when they load, which would corrupt `--json`, and a provider that crashes must
 * become exit code 1 with a message rather than take the command down without one. Prints its
 * result after a marker, on one line.
 */
import { findHtpSoc } from '../config/htpSocs';
import { loadModelManifest } from '../config/modelManifest';
import type { Frame } from '../core/frame';
import { compileHtpContext, type CompileReport } from './compile/compileHtpContext';
import type { Precision } from '../pipeline/runtimeChoices';
import { loadRgbFrame } from '../photos/photoFrames';
import { printMarked } from './qnnChildProcess';

export const WORKER_MARK = 'HTP_COMPILE_RESULT ';

export interface WorkerRequest {
  readonly manifestPath: string;
  readonly precision: Precision;
  readonly soc: string;
  readonly output: string;
  readonly image?: string;
  readonly vtcmMb: number;
}

export type WorkerResult =
  | { readonly ok: true; readonly report: CompileReport }
  | { readonly ok: false; readonly name: string; readonly message: string };

/** A deterministic frame at the network's size: gradients and a checkerboard, never flat. */
export function testPattern(width: number, height: number): Frame {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.round((255 * x) / Math.max(1, width - 1));
      data[i + 1] = Math.round((255 * y) / Math.max(1, height - 1));
      data[i + 2] = ((x >> 4) + (y >> 4)) % 2 === 0 ? 40 : 210;
    }
  }
  return { data, width, height, step: width * 3, encoding: 'rgb8' };
}

async function work(req: WorkerRequest): Promise<CompileReport> {
  const manifest = loadModelManifest(req.manifestPath);
  const soc = findHtpSoc(req.soc);
  if (!soc) throw new Error(`unknown SoC ${req.soc}`);
  const frame = req.image
    ? await loadRgbFrame(req.image)
    : testPattern(manifest.input.width, manifest.input.height);
  return compileHtpContext({
    manifest,
    precision: req.precision,
    soc,
    output: req.output,
    frame,
    vtcmMb: req.vtcmMb,
  });
}

function print(result: WorkerResult): void {
  printMarked(WORKER_MARK, result);
}

if (require.main === module) {
  const req = JSON.parse(process.argv[2] ?? '{}') as WorkerRequest;
  work(req).then(
    (report) => print({ ok: true, report }),
    (e: unknown) => {
      const err = e instanceof Error ? e : new Error(String(e));
      print({ ok: false, name: err.name, message: err.message.split('\n')[0] ?? '' });
      process.exitCode = 1;
    },
  );
}
