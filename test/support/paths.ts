import * as path from 'node:path';

/** Repository root: tests run from dist/test/..., sources live beside dist/. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export function repoPath(...parts: string[]): string {
  return path.join(REPO_ROOT, ...parts);
}
