/**
 * `htp-perception model import` on ExecuTorch programs: the folder Ultralytics' format=executorch
 * export writes (bootstrap step 76's real yolov8s-fall program, laid out as the exporter leaves
 * it), a bare program without metadata, a damaged one; and `model list` naming the runtime.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const EXPORTED = repoPath('models', 'yolov8-fall-executorch');

describe('htp-perception model import: ExecuTorch programs', function () {
  this.timeout(120_000);

  it("an Ultralytics format=executorch folder: the program's signature and metadata.yaml make a manifest that loads", () => {
    const dir = path.join(tempDir('htp-pte-import-'), 'yolov8s-fall_executorch_model');
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(EXPORTED, 'yolov8s-fall.pte'), path.join(dir, 'model.pte'));
    fs.copyFileSync(path.join(EXPORTED, 'metadata.yaml'), path.join(dir, 'metadata.yaml'));
    const r = runCli(['model', 'import', dir, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      manifest: string;
      runtime: string;
      name: string;
      task: string;
      family: string;
      classes: number;
      delegateCalls: { name: string; calls: number }[];
      kernelCalls: { name: string; calls: number }[];
    };
    assert.equal(out.manifest, path.join(dir, 'yolov8s-fall.manifest.json'));
    assert.equal(out.name, 'yolov8s-fall', 'the folder name without _executorch_model');
    assert.deepEqual(
      [out.runtime, out.task, out.family, out.classes],
      ['executorch', 'detect', 'yolov8', 2],
    );
    assert.deepEqual(
      out.delegateCalls.map((d) => d.name),
      ['XnnpackBackend'],
    );
    const m = loadModelManifest(out.manifest);
    assert.equal(m.files.fp32, 'model.pte');
    assert.deepEqual(m.classNames, ['Normal', 'Fall']);
    assert.deepEqual(
      [m.input.name, m.input.width, m.input.height, m.input.layout],
      ['input_0', 640, 640, 'NCHW'],
    );
    assert.equal(m.outputs.format, 'ultralytics-packed');
    assert.match(m.provenance.description, /Ultralytics 8\.4\.190 ExecuTorch export/);
    // Written once: a second import without --force is refused.
    const again = runCli(['model', 'import', dir]);
    assert.equal(again.status, 2);
    assert.match(errorLines(again).join('\n'), /exists: pass --force/);
  });

  it('a program without Ultralytics metadata is refused, naming its inputs and outputs', () => {
    const r = runCli([
      'model',
      'import',
      repoPath('test', 'fixtures', 'executorch', 'tiny_xnnpack.pte'),
    ]);
    assert.equal(r.status, 2);
    assert.match(
      errorLines(r).join('\n'),
      /no Ultralytics metadata.*inputs: input_0 float32 \[1,3,32,32\]; outputs: output_0 float32 \[1,5\], output_1 int64 \[1\], output_2 float16 \[1,4,8,8\]/,
    );
  });

  it('a damaged program is refused before anything is written', () => {
    const dir = tempDir('htp-pte-damaged-');
    const file = path.join(dir, 'cut.pte');
    fs.writeFileSync(
      file,
      fs.readFileSync(path.join(EXPORTED, 'yolov8s-fall.pte')).subarray(0, 4096),
    );
    fs.writeFileSync(
      path.join(dir, 'metadata.yaml'),
      fs.readFileSync(path.join(EXPORTED, 'metadata.yaml')),
    );
    const r = runCli(['model', 'import', file]);
    assert.equal(r.status, 2);
    assert.match(errorLines(r).join('\n'), /cut\.pte: not a readable ExecuTorch program/);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['cut.pte', 'metadata.yaml']);
  });

  it('model list names each model’s runtime', () => {
    const r = runCli(['model', 'list', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const list = JSON.parse(r.stdout) as { name: string; runtime?: string }[];
    const runtime = (n: string) => list.find((e) => e.name === n)?.runtime;
    assert.equal(runtime('yolov8s-fall-executorch'), 'executorch');
    assert.equal(runtime('yolov8s-fall'), 'onnxruntime');
    assert.equal(runtime('yolo11n'), 'onnxruntime');
  });
});
