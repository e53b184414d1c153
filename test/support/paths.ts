import { PACKAGE_ROOT, packagePath } from '../../src/packageRoot';

/** Repository root, found the same way as the code under test finds it. */
export const REPO_ROOT = PACKAGE_ROOT;

export function repoPath(...parts: string[]): string {
  return packagePath(...parts);
}
