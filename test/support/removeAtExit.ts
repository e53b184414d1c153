import * as fs from 'node:fs';

const folders = new Set<string>();

/**
 * Removes `dir` when the test process exits. One exit listener for all of them: one per folder
 * passed Node's limit of ten listeners in a full run and printed a leak warning.
 */
export function removeAtExit(dir: string): void {
  if (folders.size === 0) {
    process.once('exit', () => {
      for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
    });
  }
  folders.add(dir);
}
