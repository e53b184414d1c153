import * as fs from 'node:fs';
import * as path from 'node:path';
import { findModelManifests } from '../../config/findModelManifests';
import { loadModelManifest } from '../../config/modelManifest';
import { forwardMethod, isPteFile, readPteProgram } from '../../engine/readPteProgram';
import { printMarked, runMarkedChild } from '../qnnChildProcess';
import { type DoctorRow, fail } from './doctorRow';

const PROBE_MARK = 'HTP_DOCTOR_QNN_PROGRAM ';

/** The rows' name: one per program, as the node would load it. */
export function qnnProgramCheckName(model: string): string {
  return `ExecuTorch QNN ${model}`;
}

/** What to do when QNN refuses a program: the board's QNN and the backend must be one SDK's. */
export const QNN_PROGRAM_FIX =
  "run it with an ExecuTorch QNN backend (libqnn_executorch_backend.so) built against this machine's QNN runtime, found beside ExecuTorch's libraries, on LD_LIBRARY_PATH or in HTP_EXECUTORCH_QNN_BACKEND (docs/robot.md)";

/** Every model file under `modelsDir`'s manifests that is an ExecuTorch program calling QnnBackend. */
export function qnnPrograms(modelsDir: string): { model: string; file: string }[] {
  let manifests: string[];
  try {
    manifests = findModelManifests(modelsDir, { skipExamples: true });
  } catch {
    return []; // the manifest rows say why
  }
  const found: { model: string; file: string }[] = [];
  for (const manifest of manifests) {
    try {
      const m = loadModelManifest(manifest);
      for (const file of Object.values(m.modelPaths)) {
        if (file === undefined || !fs.existsSync(file) || !isPteFile(file)) continue;
        const method = forwardMethod(readPteProgram(file));
        if (method?.delegateCalls.some((c) => c.name === 'QnnBackend'))
          found.push({ model: m.name, file });
      }
    } catch {
      // A manifest or program that cannot be read has its own failed row above.
    }
  }
  return found;
}

/**
 * One row per QNN-delegated program among the manifests: the program loaded on provider htp in a
 * child process (qnnProgramProbe.ts), as the node loads it. Loading is where QNN takes or refuses
 * it, and where the engine names why (a QNN runtime of another SDK, no libQnnHtp.so, no backend).
 */
export function qnnProgramRows(modelsDir: string): DoctorRow[] {
  return qnnPrograms(modelsDir).map(({ model, file }) => {
    const answer = runMarkedChild(
      path.join(__dirname, 'qnnProgramProbe.js'),
      [model, file],
      PROBE_MARK,
      180_000,
    );
    if (answer.ok) return answer.value as DoctorRow;
    return fail(
      'stack',
      qnnProgramCheckName(model),
      `the probe loading ${file} died (${answer.death})`,
      QNN_PROGRAM_FIX,
    );
  });
}

/** What the probe prints: the row, after a marker, on one line of its stdout. */
export function printQnnProgramRow(row: DoctorRow): void {
  printMarked(PROBE_MARK, row);
}
