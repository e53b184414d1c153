import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Paths of every `*.manifest.json` under `dir` (recursively, sorted), so a model a user drops into
 * models/ with its manifest is picked up like the bootstrap ones. `models/examples/` describes files
 * that normally do not exist, so callers usually pass `{ skipExamples: true }`.
 */
export function findModelManifests(
  dir: string,
  options: { skipExamples?: boolean } = {},
): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!(options.skipExamples === true && e.name === 'examples' && d === dir)) walk(p);
      } else if (e.isFile() && e.name.endsWith('.manifest.json')) {
        found.push(p);
      }
    }
  };
  walk(dir);
  return found.sort();
}
