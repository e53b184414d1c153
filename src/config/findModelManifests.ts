import * as fs from 'node:fs';
import * as path from 'node:path';

/** What a directory entry is, looking through a symbolic link; undefined for a dangling one. */
function entryKind(dir: string, e: fs.Dirent): 'dir' | 'file' | undefined {
  if (!e.isSymbolicLink()) return e.isDirectory() ? 'dir' : e.isFile() ? 'file' : undefined;
  try {
    const st = fs.statSync(path.join(dir, e.name));
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Paths of every `*.manifest.json` under `dir` (recursively, sorted), so a model a user drops into
 * models/ with its manifest is picked up like the bootstrap ones. Symbolic links are followed (a
 * robot may link model folders from a data partition), each real folder once, so a link cycle ends.
 * `models/examples/` describes files that normally do not exist, so callers usually pass
 * `{ skipExamples: true }`.
 */
export function findModelManifests(
  dir: string,
  options: { skipExamples?: boolean } = {},
): string[] {
  const found: string[] = [];
  const visited = new Set<string>();
  const walk = (d: string): void => {
    const real = fs.realpathSync(d);
    if (visited.has(real)) return;
    visited.add(real);
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const kind = entryKind(d, e);
      if (kind === 'dir') {
        if (!(options.skipExamples === true && e.name === 'examples' && d === dir)) walk(p);
      } else if (kind === 'file' && e.name.endsWith('.manifest.json')) {
        found.push(p);
      }
    }
  };
  walk(dir);
  return found.sort();
}
