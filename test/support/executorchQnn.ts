import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from './paths';

/** Bootstrap step 78's output: the QNN-delegated program, its manifest and the ABI shim's folder. */
export const EXECUTORCH_QNN_DIR = repoPath('.cache', 'executorch-qnn');
export const EXECUTORCH_QNN_MANIFEST = path.join(
  EXECUTORCH_QNN_DIR,
  'yolov8s-fall-executorch-qnn.manifest.json',
);
export const QNN_SHIM_DIR = path.join(EXECUTORCH_QNN_DIR, 'qnn-sdk', 'lib', 'x86_64-linux-clang');

/**
 * The torch venv's libexecutorch_backend_qnn.so (the x86-64 executorch wheel's QNN backend; the
 * aarch64 wheel has none); throws naming the bootstrap step when it is not there.
 */
export function wheelQnnBackend(): string {
  const lib = repoPath('.cache', 'torch-venv', 'lib');
  const python = fs.existsSync(lib)
    ? fs.readdirSync(lib).find((d) => d.startsWith('python3'))
    : undefined;
  const file = python
    ? path.join(lib, python, 'site-packages', 'executorch', 'lib', 'libexecutorch_backend_qnn.so')
    : '';
  if (!fs.existsSync(file))
    throw new Error(
      `ExecuTorch's QNN backend missing (${file || lib}): run scripts/bootstrap.sh 78`,
    );
  return file;
}
