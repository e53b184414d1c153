import * as fs from 'node:fs';
import * as path from 'node:path';
import { findModelManifests } from '../config/findModelManifests';
import { loadModelManifest, type ModelManifest } from '../config/modelManifest';
import { modelSearchPath } from '../config/modelSearchPath';
import { PERCEPTION_PARAMETERS } from '../config/perceptionConfig';
import { formatTable } from '../util/formatTable';
import type { CommandResult } from './cliErrors';
import type { ModelRuntime } from '../engine/nativeAddon';
import { isPteFile } from '../engine/readPteProgram';
import { LICENCE_KINDS, type LicenceKind, licenceKind } from './licenceKind';

export const MODEL_LIST_HELP = `usage: htp-perception model list [--licence KIND] [--json]

Every model a node can name, from each folder of the model search path (HTP_PERCEPTION_MODEL_PATH,
then the package's models/): its name, task, model family, classes, whether its weights are
trained, what runs it (onnxruntime, or executorch for a program .pte), the files present (fp32,
int8, w8a16, HTP context binaries by SoC, with their precision when not int8), the weights' licence and where they came from.
A name found in two folders is listed once, from the folder a node would take it from. The node's
default model is marked with '*'. Manifests that fail to load are listed with their error.

The licence's kind is read from the SPDX identifier its text starts with: permissive (Apache-2.0,
MIT, BSD, ISC, ...: the weights may ship in a closed product with a notice), copyleft (AGPL, GPL,
LGPL, MPL, ...), non-commercial (CC-BY-NC), or unknown (never counted as permissive).

options:
  --licence KIND  only models whose weights' licence is of this kind: ${LICENCE_KINDS.join(', ')}
  --json          print the list as JSON (each entry with its licenceKind)
  -h, --help      this text

exit code: 0 listed (even with broken manifests), 2 bad usage`;

export interface ModelListEntry {
  readonly name: string;
  readonly manifest: string;
  readonly isDefault: boolean;
  readonly task?: ModelManifest['task'];
  /** The manifest's model family (src/families/): which decoder and importer read it. */
  readonly family?: ModelManifest['family'];
  readonly classes?: number;
  readonly weights?: ModelManifest['weights'];
  /** What runs the model: ONNX Runtime, or ExecuTorch for a program (.pte); from the file. */
  readonly runtime?: ModelRuntime;
  /**
   * Which of the manifest's files exist: fp32, int8, w8a16 and `htp:<soc>` per context binary
   * (`htp:<soc>/<precision>` for one not compiled from int8, `(ultralytics)` for an exported one).
   */
  readonly files?: readonly string[];
  readonly license?: string;
  /** The licence's kind, from the SPDX identifier it starts with (licenceKind.ts). */
  readonly licenceKind?: LicenceKind;
  /** registry:package==version, or `none` for weights built here. */
  readonly source?: string;
  readonly error?: string;
}

function present(m: ModelManifest): string[] {
  const dir = path.dirname(m.manifestPath);
  const files: string[] = [];
  if (fs.existsSync(m.modelPaths.fp32)) files.push('fp32');
  for (const p of ['int8', 'w8a16'] as const) {
    const file = m.modelPaths[p];
    if (file !== undefined && fs.existsSync(file)) files.push(p);
  }
  for (const c of m.files.htpContexts ?? []) {
    // An int8 binary is the usual one; others say their precision (and who made them).
    const what = `${c.precision === 'int8' ? '' : `/${c.precision}`}${c.exportedBy ? `(${c.exportedBy})` : ''}`;
    if (fs.existsSync(path.join(dir, c.file))) files.push(`htp:${c.soc}${what}`);
  }
  return files;
}

/** Every manifest on the model search path, first folder first, a name listed once. */
export function listModels(env: NodeJS.ProcessEnv = process.env): ModelListEntry[] {
  const seen = new Set<string>();
  const entries: ModelListEntry[] = [];
  // The default is a model name, looked up on the same search path.
  const def = PERCEPTION_PARAMETERS.model.default;
  for (const { dir } of modelSearchPath(env)) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
    for (const file of findModelManifests(dir, { skipExamples: true })) {
      const name = path.basename(file).replace(/\.manifest\.json$/, '');
      if (seen.has(name)) continue;
      seen.add(name);
      try {
        const m = loadModelManifest(file);
        const p = m.provenance;
        entries.push({
          name,
          manifest: file,
          isDefault: name === def,
          task: m.task,
          family: m.family,
          classes: m.classNames.length,
          weights: m.weights,
          runtime: isPteFile(m.modelPaths.fp32) ? 'executorch' : 'onnxruntime',
          files: present(m),
          license: p.license,
          licenceKind: licenceKind(p.license),
          source: p.registry === 'none' ? 'none' : `${p.registry}:${p.package}==${p.version}`,
        });
      } catch (e) {
        entries.push({
          name,
          manifest: file,
          isDefault: name === def,
          error: (e as Error).message,
        });
      }
    }
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

export function modelListCommand(o: {
  readonly json: boolean;
  readonly licence?: LicenceKind;
}): CommandResult {
  // A manifest that does not load has no licenceKind, so it is listed under no kind.
  const entries = listModels().filter(
    (e) => o.licence === undefined || e.licenceKind === o.licence,
  );
  if (o.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  const rows = entries.map((e) => ({
    model: `${e.isDefault ? '*' : ' '}${e.name}`,
    task: e.task ?? '-',
    family: e.family ?? '-',
    classes: e.classes ?? '-',
    weights: e.weights ?? 'broken',
    runtime: e.runtime ?? '-',
    files: e.files?.join(',') ?? '-',
    license: e.license ?? '-',
    source: e.source ?? (e.error ?? '').split('\n')[0] ?? '-',
  }));
  process.stdout.write(`${formatTable(rows)}\n* the default model of perception_node\n`);
  return 0;
}
