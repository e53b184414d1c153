import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import type { HtpContextEntry, ModelManifest } from '../config/modelManifest';
import { HtpOptionsSchema } from '../engine/engineOptions';
import { sha256File } from '../util/sha256File';
import type { RuntimeChoices } from './runtimeChoices';

export interface SelectedHtpContext {
  readonly entry: HtpContextEntry;
  /** Absolute path of the context binary. */
  readonly path: string;
}

/**
 * The manifest's compiled context binary for this run, if any: provider htp, no explicit
 * `context_cache` (an explicit one always wins), and an entry compiled from the same precision
 * for the same htp_arch / soc_model the session asks for (a binary for another SoC would not
 * load). Pure: whether the file is usable is checkHtpContext's job.
 */
export function selectHtpContext(
  m: ModelManifest,
  choices: RuntimeChoices,
): SelectedHtpContext | undefined {
  if (choices.provider !== 'htp' || choices.htp?.context_cache !== undefined) return undefined;
  // Invalid HTP options are the engine's to reject, with its own error; no binary then.
  const htp = HtpOptionsSchema.safeParse(choices.htp ?? {});
  if (!htp.success) return undefined;
  const entry = (m.files.htpContexts ?? []).find(
    (c) =>
      c.precision === choices.precision &&
      c.htpArch === htp.data.htp_arch &&
      c.socModel === htp.data.soc_model,
  );
  if (!entry) return undefined;
  return { entry, path: path.resolve(path.dirname(m.manifestPath), entry.file) };
}

/**
 * Refuses a selected binary that is missing (the engine would otherwise compile and write it
 * there) or stale (compiled from a model file that has changed since), naming the fix.
 */
export function checkHtpContext(m: ModelManifest, selected: SelectedHtpContext): void {
  const { entry } = selected;
  const source = entry.precision === 'int8' ? m.modelPaths.int8 : m.modelPaths.fp32;
  const redo = `run 'htp-perception model compile ${m.name} --soc ${entry.soc} --precision ${entry.precision} --force'`;
  if (!fs.existsSync(selected.path)) {
    throw new ConfigError(
      `${m.manifestPath}: files.htpContexts: ${selected.path} does not exist (${redo}, or remove the entry)`,
    );
  }
  if (source === undefined || sha256File(source) !== entry.sourceSha256) {
    throw new ConfigError(
      `${m.manifestPath}: files.htpContexts: ${entry.file} was compiled from another version of files.${entry.precision} (${redo})`,
    );
  }
}
