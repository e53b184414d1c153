import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const folders = new Set<string>();

/**
 * A temporary folder removed at process exit. One exit listener for all of them: one per folder
 * passed Node's limit of ten listeners in a full run and printed a leak warning.
 */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (folders.size === 0) {
    process.once('exit', () => {
      for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
    });
  }
  folders.add(dir);
  return dir;
}
