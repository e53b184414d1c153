import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packagePath } from '../packageRoot';
import type { QuantizedPrecision } from '../core/precisions';

/** The tools venv of bootstrap step 25, which has onnx, onnxruntime and OpenCV. */
export const DEFAULT_TOOLS_PYTHON = packagePath('.cache', 'tools-venv', 'bin', 'python');
export const QUANTIZE_SCRIPT = packagePath('tools', 'models', 'quantize_int8.py');

const INSTALL_HINT =
  "install it with 'bash scripts/bootstrap.sh 25-pytools' in the htp_perception checkout, or pass " +
  '--python a Python 3 that has the packages of tools/requirements-models.txt ' +
  '(onnx, onnxruntime, opencv-python-headless, numpy)';

/** The quantizer's Python is missing or lacks its packages: the user installs it (exit 1). */
export class QuantizerUnavailableError extends Error {
  override readonly name = 'QuantizerUnavailableError';
}

/** The quantizer ran and failed: its last lines of output say why. */
export class QuantizerFailedError extends Error {
  override readonly name = 'QuantizerFailedError';
}

/** Checks that the script and `python` exist and that `python` can import the quantizer. */
export function checkQuantizerPython(python: string): void {
  if (!fs.existsSync(QUANTIZE_SCRIPT)) {
    // Installed packages (colcon, robots) ship no tools/: quantize where the checkout is.
    throw new QuantizerUnavailableError(
      `${QUANTIZE_SCRIPT} missing: quantize in a source checkout (after scripts/bootstrap.sh) ` +
        'and copy the model folder to the robot',
    );
  }
  if (!fs.existsSync(python)) {
    throw new QuantizerUnavailableError(
      `no Python for the ONNX Runtime quantizer at ${python}: ${INSTALL_HINT}`,
    );
  }
  const r = spawnSync(python, ['-c', 'import onnx, cv2, numpy, onnxruntime.quantization'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    const why = lastLine(r.stderr) || (r.error?.message ?? `exit ${String(r.status)}`);
    throw new QuantizerUnavailableError(
      `${python} cannot import the quantizer (${why}): ${INSTALL_HINT}`,
    );
  }
}

export interface QuantizeRequest {
  readonly python: string;
  readonly manifestPath: string;
  readonly photos: readonly string[];
  /** Final model path (files.int8 or files.w8a16 of the manifest). */
  readonly output: string;
  /** W8A8 (uint8 activations) or W8A16 (uint16 activations); 8-bit weights both. */
  readonly precision: QuantizedPrecision;
}

/**
 * Runs tools/models/quantize_int8.py (ONNX Runtime's static quantizer, the HTP recipe) on the
 * calibration photos. The model is written beside its destination and renamed over it only when
 * complete, so a failed run leaves the previous model in place, and a destination that is a hard
 * link (shared checkouts) gets a new file rather than rewriting the other names' contents.
 * Returns the script's summary line.
 */
export function runQuantizer(req: QuantizeRequest): string {
  const tmp = path.join(
    path.dirname(req.output),
    `.${path.basename(req.output)}.${process.pid}.partial.onnx`,
  );
  // A scratch working directory: older quantizers drop helper models into the current directory.
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-quantize-'));
  try {
    const r = spawnSync(
      req.python,
      [
        QUANTIZE_SCRIPT,
        req.manifestPath,
        ...req.photos,
        '--output',
        tmp,
        '--precision',
        req.precision,
      ],
      { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (r.status !== 0 || !fs.existsSync(tmp)) {
      const why = lastLine(r.stderr) || (r.error?.message ?? `exit ${String(r.status)}`);
      throw new QuantizerFailedError(`quantize_int8.py failed on ${req.manifestPath}: ${why}`);
    }
    fs.renameSync(tmp, req.output);
    return lastLine(r.stdout);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function lastLine(text: string | null | undefined): string {
  const lines = (text ?? '').split('\n').filter((l) => l.trim().length > 0);
  return lines[lines.length - 1]?.trim() ?? '';
}
