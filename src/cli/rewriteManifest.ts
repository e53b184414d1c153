import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseModelManifest } from '../config/modelManifest';

/**
 * Replaces the manifest file at `manifestPath` with `raw`, validated first. By a rename, never
 * rewritten in place: model folders may hold hard links shared with other checkouts.
 */
export function rewriteManifest(manifestPath: string, raw: unknown): void {
  parseModelManifest(raw, manifestPath);
  const tmp = path.join(
    path.dirname(manifestPath),
    `.${path.basename(manifestPath)}.${process.pid}.tmp`,
  );
  fs.writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`);
  fs.renameSync(tmp, manifestPath);
}
