import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import type { HtpContextEntry, ModelManifest } from '../config/modelManifest';
import { HtpOptionsSchema } from '../engine/engineOptions';
import { sha256File } from '../util/sha256File';
import type { Precision, RuntimeChoices } from './runtimeChoices';

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
  return { entry, path: htpContextPath(m, entry) };
}

/** Absolute path of a recorded context binary (entries are relative to the manifest's folder). */
export function htpContextPath(m: ModelManifest, entry: HtpContextEntry): string {
  return path.resolve(path.dirname(m.manifestPath), entry.file);
}

/** The binary of an Ultralytics format=qnn export that provides `precision`, if any. */
export function exportedHtpContext(
  m: ModelManifest,
  precision: Precision,
): HtpContextEntry | undefined {
  return (m.files.htpContexts ?? []).find(
    (c) => c.precision === precision && c.exportedBy === 'ultralytics',
  );
}

/**
 * Which model file a binary was made from: its own precision's, except for an Ultralytics export,
 * which its exporter quantized from the FP32 model it wrote beside it.
 */
export function contextSourcePrecision(entry: HtpContextEntry): Precision {
  return entry.exportedBy === 'ultralytics' ? 'fp32' : entry.precision;
}

/** How to make a binary again: our compile, or Ultralytics' export and our import. */
export function htpContextRedo(model: string, entry: HtpContextEntry): string {
  return entry.exportedBy === 'ultralytics'
    ? `export it again with 'yolo export format=qnn name=${entry.htpArch}' and run 'htp-perception model import' on the new _qnn.onnx`
    : `run '${htpCompileCommand(model, entry, true)}'`;
}

/** The command that compiles `model` (a name under models/ or a manifest path) for one SoC. */
export function htpCompileCommand(
  model: string,
  target: Pick<HtpContextEntry, 'soc' | 'precision'>,
  force: boolean,
): string {
  return `htp-perception model compile ${model} --soc ${target.soc} --precision ${target.precision}${force ? ' --force' : ''}`;
}

/**
 * Whether a recorded binary can be loaded as is: `missing` (the engine would otherwise compile and
 * write it there), `source-missing` (the model file it was compiled from is gone, so staleness
 * cannot be judged), `stale` (that model file's SHA-256 is no longer the recorded one: compiled
 * from another version, e.g. re-quantized since) or `usable`. Reads the files, never throws for
 * them; the one staleness rule for nodes (checkHtpContext) and `doctor`.
 */
export function htpContextState(
  m: ModelManifest,
  entry: HtpContextEntry,
): { readonly state: 'usable' | 'missing' | 'source-missing' | 'stale'; readonly source?: string } {
  const source = m.modelPaths[contextSourcePrecision(entry)];
  if (!fs.existsSync(htpContextPath(m, entry))) return { state: 'missing' };
  if (source === undefined) return { state: 'stale' };
  if (!fs.existsSync(source)) return { state: 'source-missing', source };
  return { state: sha256File(source) === entry.sourceSha256 ? 'usable' : 'stale', source };
}

/**
 * Refuses a selected binary that is missing (the engine would otherwise compile and write it
 * there) or stale (compiled from a model file that has changed since), naming the fix; by
 * htpContextState, which `doctor` reports with.
 */
export function checkHtpContext(m: ModelManifest, selected: SelectedHtpContext): void {
  const { entry } = selected;
  const redo = htpContextRedo(m.name, entry);
  const { state, source } = htpContextState(m, entry);
  if (state === 'missing') {
    throw new ConfigError(
      `${m.manifestPath}: files.htpContexts: ${selected.path} does not exist (${redo}, or remove the entry)`,
    );
  }
  if (state === 'source-missing') {
    throw new ConfigError(
      `${m.manifestPath}: files.${contextSourcePrecision(entry)}: ${source ?? ''} does not exist (run scripts/bootstrap.sh or drop the model there)`,
    );
  }
  if (state === 'stale') {
    throw new ConfigError(
      `${m.manifestPath}: files.htpContexts: ${entry.file} was compiled from another version of files.${contextSourcePrecision(entry)} (${redo})`,
    );
  }
}
