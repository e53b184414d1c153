import * as fs from 'node:fs';
import { ConfigError } from '../../core/configError';
import type { HtpContextEntry } from '../../config/modelManifest';
import { parseModelManifest } from '../../config/modelManifest';
import { rewriteManifest } from '../rewriteManifest';

/**
 * Adds (or replaces, for the same SoC and precision) a context binary entry in the manifest file
 * at `manifestPath` (rewriteManifest: validated, replaced by a rename).
 */
export function recordHtpContext(manifestPath: string, entry: HtpContextEntry): void {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${manifestPath}: cannot read manifest (${(e as Error).message})`);
  }
  // Validated first, so the edit below works on a known shape.
  const current = parseModelManifest(data, manifestPath);
  const others = (current.files.htpContexts ?? []).filter(
    (c) => !(c.soc === entry.soc && c.precision === entry.precision),
  );
  const raw = data as { files: Record<string, unknown> };
  raw.files.htpContexts = [...others, entry];
  rewriteManifest(manifestPath, raw);
}
