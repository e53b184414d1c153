import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './paths';

const folders = new Set<string>();

function removedAtExit(dir: string): string {
  if (folders.size === 0) {
    process.once('exit', () => {
      for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
    });
  }
  folders.add(dir);
  return dir;
}

/**
 * A temporary folder removed at process exit. One exit listener for all of them: one per folder
 * passed Node's limit of ten listeners in a full run and printed a leak warning.
 */
export function tempDir(prefix: string): string {
  return removedAtExit(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

const below = (dir: string, root: string): boolean => {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * A temporary folder (removed at process exit) that is not inside the checkout: the lanes point
 * TMPDIR into <checkout>/.cache/test-tmp, and Node resolves a package through every parent folder
 * of the code that asks for it, so an install space below the checkout would load a package it
 * lacks from <checkout>/node_modules and pass. The first of TMPDIR, /tmp, /var/tmp that lies
 * outside the checkout.
 */
export function tempDirOutsideCheckout(prefix: string): string {
  const root = fs.realpathSync(REPO_ROOT);
  for (const base of [os.tmpdir(), '/tmp', '/var/tmp']) {
    let real: string;
    try {
      real = fs.realpathSync(base);
      fs.accessSync(real, fs.constants.W_OK);
    } catch {
      continue;
    }
    if (!below(real, root)) return removedAtExit(fs.mkdtempSync(path.join(real, prefix)));
  }
  throw new Error(`no writable temp folder outside the checkout ${root} (TMPDIR, /tmp, /var/tmp)`);
}
