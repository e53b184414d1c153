/**
 * `htp-perception model import X_qnn.onnx`: Ultralytics' `format=qnn` export, an ONNX Runtime EP
 * context model whose EPContext node embeds a QNN context binary (W8A16, compiled for one Hexagon
 * architecture), with a channel-last input. Its exporter writes the FP32 channel-last graph it
 * quantized from beside it (`X.onnx`): the manifest describes that graph (the CPU runs it, and it
 * is what the binary's staleness is judged by) and records the binary as its w8a16 HTP context,
 * so `precision: w8a16, provider: htp` loads the binary without compiling anything.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HtpContextEntry, ModelManifestData } from '../../config/modelManifest';
import { parseModelManifest } from '../../config/modelManifest';
import { HTP_SOCS } from '../../config/htpSocs';
import { deriveManifest } from '../../model/deriveManifest';
import type { OnnxModelInfo, OnnxValueInfo } from '../../model/readOnnxModel';
import { readOnnxModel } from '../../model/readOnnxModel';
import { sha256File } from '../../util/sha256File';
import { type CommandResult, UsageError } from '../cliErrors';
import { withModelSha256 } from '../withModelSha256';

export interface QnnExportImportOptions {
  readonly file: string;
  readonly info: OnnxModelInfo;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
}

const EP_CONTEXT = 'com.microsoft:EPContext';

/** Whether an ONNX file is an EP context model (compiled partitions as EPContext nodes). */
export function isEpContextModel(info: OnnxModelInfo): boolean {
  return (info.opTypes[EP_CONTEXT] ?? 0) > 0;
}

/**
 * The HTP target the exporter compiled for: Ultralytics records its export arguments in the
 * metadata (`args`, a Python dict literal; `name` is the target: a Hexagon version such as '68',
 * or a SoC name such as 'iq-8275'). Undefined when the metadata does not say.
 */
export function exportedHtpTarget(metadata: Readonly<Record<string, string>>): string | undefined {
  const m = /['"]name['"]\s*:\s*['"]([^'"]+)['"]/.exec(metadata.args ?? '');
  return m?.[1];
}

function sameTensors(a: readonly OnnxValueInfo[], b: readonly OnnxValueInfo[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (t, i) =>
        t.name === b[i]!.name &&
        t.elemType === b[i]!.elemType &&
        t.dims.length === b[i]!.dims.length &&
        t.dims.every((d, k) => d === b[i]!.dims[k]),
    )
  );
}

function describe(ts: readonly OnnxValueInfo[]): string {
  return ts.map((t) => `${t.name} ${t.elemType}[${t.dims.join(',')}]`).join(', ');
}

export function qnnExportImportCommand(o: QnnExportImportOptions): CommandResult {
  const file = path.resolve(o.file);
  const { info } = o;
  if (info.metadata.task === undefined || info.metadata.names === undefined) {
    throw new UsageError(
      `${o.file}: an ONNX Runtime EP context model (${info.opTypes[EP_CONTEXT]} EPContext node(s)) without Ultralytics' metadata: only Ultralytics' format=qnn exports are imported as compiled; import the ONNX model it was compiled from and run 'htp-perception model compile'`,
    );
  }
  const stem = path.basename(file).replace(/\.onnx$/i, '');
  const sourceName = `${stem.replace(/_qnn$/, '')}.onnx`;
  const source = path.join(path.dirname(file), sourceName);
  if (sourceName === path.basename(file) || !fs.existsSync(source)) {
    throw new UsageError(
      `${o.file}: Ultralytics' format=qnn export writes the FP32 channel-last model it quantized (${sourceName}) beside ${path.basename(file)}; it is needed too (the CPU runs it, and the binary is checked against it): put it in ${path.dirname(file)}`,
    );
  }
  const sourceInfo = readOnnxModel(source);
  if (isEpContextModel(sourceInfo)) {
    throw new UsageError(`${source}: is itself an EP context model, not the FP32 source`);
  }
  if (
    !sameTensors(info.inputs, sourceInfo.inputs) ||
    !sameTensors(info.outputs, sourceInfo.outputs)
  ) {
    throw new UsageError(
      `${o.file} and ${sourceName} are not the same model: inputs ${describe(info.inputs)} / ${describe(sourceInfo.inputs)}, outputs ${describe(info.outputs)} / ${describe(sourceInfo.outputs)} (export again and keep both files of one export)`,
    );
  }
  const assumptions: string[] = [];
  const target = exportedHtpTarget(info.metadata);
  if (target === undefined) {
    assumptions.push('compiled for htp_arch 68 (the metadata does not say; QCS6490 is v68)');
  }
  const htpArch = target === undefined ? 68 : /^\d+$/.test(target) ? Number(target) : undefined;
  const soc = HTP_SOCS.find((s) => s.htpArch === htpArch);
  if (!soc) {
    throw new UsageError(
      `${o.file}: compiled for ${htpArch !== undefined ? `Hexagon v${htpArch}` : `the target '${target ?? ''}'`}; the SoCs known here are ${HTP_SOCS.map((s) => `${s.name} (v${s.htpArch})`).join(', ')}: export with 'yolo export format=qnn name=68' for a QCS6490`,
    );
  }
  const name = o.name ?? `${stem.replace(/_qnn$/, '')}-qnn`;
  const derived = deriveManifest(source, sourceInfo, { name });
  const dir = path.dirname(file);
  const context: HtpContextEntry = {
    file: path.basename(file),
    soc: soc.name,
    precision: 'w8a16',
    htpArch: soc.htpArch,
    socModel: soc.socModel,
    sourceSha256: sha256File(source),
    exportedBy: 'ultralytics',
  };
  const withFp32 = withModelSha256(derived.manifest, dir, 'fp32');
  const m: ModelManifestData = parseModelManifest(
    {
      ...withFp32,
      files: { ...withFp32.files, htpContexts: [context] },
      notes:
        `Ultralytics format=qnn export: ${path.basename(file)} is its W8A16 QNN context binary for Hexagon v${soc.htpArch} ` +
        `(precision w8a16, provider htp; on x86-64 the QNN simulator runs it); ${sourceName} is the FP32 ` +
        'channel-last model it was quantized from (precision fp32, any provider).',
    },
    file,
  );
  const out = path.join(dir, `${m.name}.manifest.json`);
  if (fs.existsSync(out) && !o.force) {
    throw new UsageError(`${out} exists: pass --force to overwrite it`);
  }
  fs.writeFileSync(out, `${JSON.stringify(m, null, 2)}\n`);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ manifest: out, kind: 'ultralytics-qnn', name: m.name, task: m.task, family: m.family, classes: m.classNames.length, fp32: sourceName, htpContext: context, assumptions }, null, 2)}\n`,
    );
  } else {
    const lines = [
      `wrote ${out}`,
      `  Ultralytics format=qnn export: ${m.task} / ${m.family}, input ${m.input.name} ${m.input.width}x${m.input.height} ${m.input.layout}, ${m.classNames.length} class(es), outputs ${m.outputs.format}`,
      `  w8a16 on the HTP: ${context.file} (QNN context binary, ${soc.name}, htp_arch ${soc.htpArch}); fp32: ${sourceName}`,
      ...assumptions.map((a) => `  assumed: ${a} (edit the manifest if wrong)`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
