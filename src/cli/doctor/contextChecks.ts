/**
 * The context-binary rows of `doctor`: every ahead-of-time QNN context binary a manifest records
 * (files.htpContexts, written by `htp-perception model compile`), judged by the rule a node applies
 * before loading one (htpContextState: the file is there and was compiled from the current model
 * file, by SHA-256) and against this board's SoC when the device rows know it.
 */
import * as path from 'node:path';
import { findModelManifests } from '../../config/findModelManifests';
import {
  type HtpContextEntry,
  loadModelManifest,
  type ModelManifest,
} from '../../config/modelManifest';
import { resolveModelReference } from '../../config/perceptionConfig';
import {
  htpCompileCommand,
  htpContextPath,
  htpContextState,
  contextSourcePrecision,
  htpContextRedo,
} from '../../pipeline/selectHtpContext';
import type { BoardSoc } from './deviceChecks';
import { type DoctorRow, fail, ok } from './doctorRow';

/** What the context binaries are judged against. */
export interface ContextTarget {
  /** This board's SoC, when the device rows could name it. */
  readonly board?: BoardSoc;
  /** Why there is no board SoC (an x86-64 host, an unnamed SoC): said on informational rows. */
  readonly noBoard: string;
}

/** How `model compile` is told about the model: its name when that finds this manifest. */
function modelReference(m: ModelManifest): string {
  if (path.resolve(resolveModelReference(m.name)) === m.manifestPath) return m.name;
  return /^[\w./-]+$/.test(m.manifestPath) ? m.manifestPath : `'${m.manifestPath}'`;
}

function contextRow(
  m: ModelManifest,
  entry: HtpContextEntry,
  modelsDir: string,
  target: ContextTarget,
): DoctorRow {
  const check = `context ${m.name} ${entry.soc}/${entry.precision}`;
  const file = path.relative(modelsDir, htpContextPath(m, entry));
  const from = `files.${contextSourcePrecision(entry)}`;
  const ref = modelReference(m);
  const { state } = htpContextState(m, entry);
  const board = target.board;

  // A binary for another SoC than this board's: never loaded here, whatever its state.
  if (board !== undefined && board.soc?.name !== entry.soc) {
    const note =
      state === 'missing'
        ? ' (its file is missing too)'
        : state === 'stale'
          ? ` (and stale: compiled from another version of ${from})`
          : '';
    const own = board.soc;
    const here = `${file} is for ${entry.soc}, this board is ${board.chip}`;
    if (
      own !== undefined &&
      (m.files.htpContexts ?? []).some((c) => c.soc === own.name && c.precision === entry.precision)
    ) {
      return {
        section: 'stack',
        check,
        status: 'n/a',
        detail: `${here}: unused here, this board loads the ${own.name} binary${note}`,
      };
    }
    return {
      section: 'stack',
      check,
      status: 'warn',
      detail: `${here}: it does not load on this board${note}`,
      fix:
        own !== undefined
          ? `${htpCompileCommand(ref, { soc: own.name, precision: entry.precision }, false)} (until then nodes here compile the model at every start)`
          : `none for this board: htp-perception cannot compile for ${board.chip} (see the SoC row)`,
    };
  }

  const where =
    board !== undefined ? `for this board (${board.chip})` : `for ${entry.soc} (${target.noBoard})`;
  switch (state) {
    case 'missing':
      return fail(
        'stack',
        check,
        `${file} missing: a node running ${m.name} in ${entry.precision} on the HTP refuses to start`,
        `${entry.exportedBy === 'ultralytics' ? htpContextRedo(ref, entry) : htpCompileCommand(ref, entry, false)}, or remove the entry from files.htpContexts`,
      );
    case 'stale':
      return fail(
        'stack',
        check,
        `${file} is stale: ${from} changed since it was compiled (SHA-256 differs from the recorded one); a node running ${m.name} in ${entry.precision} on the HTP refuses to start`,
        entry.exportedBy === 'ultralytics'
          ? htpContextRedo(ref, entry)
          : `${htpCompileCommand(ref, entry, true)} (recompiles it from the current ${from})`,
      );
    case 'source-missing':
      return {
        section: 'stack',
        check,
        status: 'warn',
        detail: `${file} present, staleness unknown: ${from} is missing (manifest row above)`,
        fix: `put ${from} back (see the manifest row), then run doctor again`,
      };
    case 'usable':
      return ok(
        'stack',
        check,
        `${file}, ${entry.exportedBy === 'ultralytics' ? "Ultralytics' format=qnn export of" : 'compiled from'} the current ${from}, ${where}`,
      );
  }
}

/** One row per context binary `m` records, in the manifest's order (none for none). */
export function manifestContextRows(
  m: ModelManifest,
  modelsDir: string,
  target: ContextTarget,
): DoctorRow[] {
  return (m.files.htpContexts ?? []).map((entry) => contextRow(m, entry, modelsDir, target));
}

/**
 * One row per recorded context binary of every manifest under `modelsDir` (the discovery nodes
 * use; manifests that do not load are the manifest rows' to report), then one informational row
 * naming the models without any (their nodes compile the model at every start on the HTP).
 */
export function contextRows(modelsDir: string, target: ContextTarget): DoctorRow[] {
  let manifests: string[];
  try {
    manifests = findModelManifests(modelsDir, { skipExamples: true });
  } catch {
    return []; // The manifest rows say what is wrong with the folder.
  }
  const rows: DoctorRow[] = [];
  const without: string[] = [];
  for (const file of manifests) {
    let m: ModelManifest;
    try {
      m = loadModelManifest(file);
    } catch {
      continue;
    }
    if ((m.files.htpContexts ?? []).length === 0) without.push(m.name);
    rows.push(...manifestContextRows(m, modelsDir, target));
  }
  if (without.length > 0) {
    const board = target.board;
    const how =
      board !== undefined && board.soc === undefined
        ? `none can be compiled for ${board.chip}, see the SoC row`
        : `'htp-perception model compile NAME${board?.soc ? ` --soc ${board.soc.name}` : ''}' records one`;
    rows.push(
      ok(
        'stack',
        'context binaries',
        `none recorded for ${without.join(', ')}: on the HTP their nodes compile the model at every start (${how})`,
      ),
    );
  }
  return rows;
}
