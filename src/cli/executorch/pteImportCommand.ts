/**
 * `htp-perception model import` for ExecuTorch programs: FILE.pte, or the folder Ultralytics'
 * `format=executorch` export writes (`<stem>_executorch_model/` with `model.pte` and
 * `metadata.yaml`). The manifest comes from the program's own method signature (read without the
 * runtime: src/engine/readPteProgram.ts) and, where the exporter left it, Ultralytics' metadata,
 * through the same family readers as an ONNX export: a program is described as its ONNX twin is.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kernelCallCount } from '../../engine/readPteProgram';
import { deriveManifest } from '../../model/deriveManifest';
import { describeMethod, readForwardMethod } from './describeProgram';
import { ultralyticsMetadataFromYaml } from '../../model/ultralyticsYamlMetadata';
import { type CommandResult, UsageError } from '../cliErrors';
import { withModelSha256 } from '../withModelSha256';

export interface PteImportOptions {
  readonly file: string;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
}

/** The suffix Ultralytics gives the export folder. */
const ULTRALYTICS_FOLDER = /_executorch_model\/?$/;

/** The program and its metadata.yaml (if any) for a .pte file or an export folder. */
function locate(given: string): { program: string; metadata?: string; defaultName: string } {
  const abs = path.resolve(given);
  if (!fs.existsSync(abs)) throw new UsageError(`${given}: no such file or folder`);
  if (fs.statSync(abs).isDirectory()) {
    const programs = fs.readdirSync(abs).filter((f) => f.endsWith('.pte'));
    if (programs.length !== 1) {
      throw new UsageError(
        `${given}: expected one .pte program in the folder, found ${programs.length ? programs.join(', ') : 'none'}`,
      );
    }
    const metadata = path.join(abs, 'metadata.yaml');
    return {
      program: path.join(abs, programs[0]!),
      ...(fs.existsSync(metadata) ? { metadata } : {}),
      defaultName: path.basename(abs).replace(ULTRALYTICS_FOLDER, ''),
    };
  }
  const metadata = path.join(path.dirname(abs), 'metadata.yaml');
  return {
    program: abs,
    ...(fs.existsSync(metadata) ? { metadata } : {}),
    defaultName: path.basename(abs, '.pte'),
  };
}

export function pteImportCommand(o: PteImportOptions): CommandResult {
  const found = locate(o.file);
  const metadata = found.metadata
    ? ultralyticsMetadataFromYaml(fs.readFileSync(found.metadata, 'utf8'), found.metadata)
    : {};
  const method = readForwardMethod(found.program);
  const info = describeMethod(method, metadata);
  const name = o.name ?? found.defaultName;
  const derived = deriveManifest(found.program, info, { name });
  const dir = path.dirname(found.program);
  const m = withModelSha256(derived.manifest, dir, 'fp32');
  const out = path.join(dir, `${m.name}.manifest.json`);
  if (fs.existsSync(out) && !o.force) {
    throw new UsageError(`${out} exists: pass --force to overwrite it`);
  }
  fs.writeFileSync(out, `${JSON.stringify(m, null, 2)}\n`);
  const placement = [
    ...method.delegateCalls.map((d) => `${d.name} ${d.calls} call(s)`),
    `ExecuTorch kernels ${kernelCallCount(method)} call(s)`,
  ].join(', ');
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          manifest: out,
          kind: derived.kind,
          runtime: 'executorch',
          name: m.name,
          task: m.task,
          family: m.family,
          classes: m.classNames.length,
          delegateCalls: method.delegateCalls,
          kernelCalls: method.kernelCalls,
          assumptions: derived.assumptions,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const lines = [
      `wrote ${out}`,
      `  ExecuTorch program${found.metadata ? ' (Ultralytics export)' : ''}: ${m.task} / ${m.family}, input ${m.input.name} ${m.input.width}x${m.input.height} ${m.input.layout}, ${m.classNames.length} class(es), outputs ${m.outputs.format}`,
      `  placement recorded in the program: ${placement}`,
      ...derived.assumptions.map((a) => `  assumed: ${a} (edit the manifest if wrong)`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
