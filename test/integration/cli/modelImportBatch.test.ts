/**
 * `htp-perception model import MODEL --batch N` (issue 44 item 3): the batch-N copy of an imported
 * model is written beside it only when it computes, slot by slot, what the original computes per
 * frame; a graph the re-batching would make mix images is refused and nothing is left behind.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import {
  int64Raw,
  intsAttribute,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  ONNX_INT64,
  tensorProto,
  valueInfoProto,
} from '../../../src/model/onnxWriter';
import { readOnnxModel } from '../../../src/model/readOnnxModel';
import { sha256File } from '../../../src/util/sha256File';
import { errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const YOLO11N = repoPath('models', 'yolo11n');

/**
 * yolo11n's input and a graph that shuffles it: Reshape to [3, -1] (a leading 3, not the batch:
 * left alone), Transpose, Reshape to [1, 3, 640, 640] (a leading 1: made N). Per image it is a
 * fixed permutation of the pixels; batched, the [3, -1] view spans every image, so the slots mix.
 */
function mixingModel(file: string): void {
  fs.writeFileSync(
    file,
    modelProto({
      name: 'mixing',
      producer: 'modelImportBatch.test',
      nodes: [
        nodeProto('Reshape', 'rows', ['images', 'three_rows'], ['r']),
        nodeProto('Transpose', 'swap', ['r'], ['t'], [intsAttribute('perm', [1, 0])]),
        nodeProto('Reshape', 'back', ['t', 'image_shape'], ['output0']),
      ],
      initializers: [
        tensorProto('three_rows', ONNX_INT64, [2], int64Raw([3, -1])),
        tensorProto('image_shape', ONNX_INT64, [4], int64Raw([1, 3, 640, 640])),
      ],
      inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 640, 640])],
      outputs: [valueInfoProto('output0', ONNX_FLOAT, [1, 3, 640, 640])],
    }),
  );
}

describe('htp-perception model import MODEL --batch N', function () {
  this.timeout(180_000);
  const dir = tempDir('htp-cli-batch-');
  let manifest: string;
  before(function () {
    for (const f of ['yolo11n.manifest.json', 'yolo11n.onnx', 'yolo11n.int8.qdq.onnx']) {
      assert.ok(fs.existsSync(path.join(YOLO11N, f)), `${f} missing: run scripts/bootstrap.sh`);
      fs.copyFileSync(path.join(YOLO11N, f), path.join(dir, f));
    }
    manifest = path.join(dir, 'yolo11n.manifest.json');
  });

  it('writes <MODEL>-b2 beside it: every model file re-batched, proven per slot, checksummed, no HTP binary', function () {
    const r = runCli(['model', 'import', manifest, '--batch', '2', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      manifest: string;
      files: { precision: string; file: string; reshapes: number }[];
      agreements: { precision: string; slot: number; agrees: boolean; maxDiff: number }[];
    };
    assert.equal(out.manifest, path.join(dir, 'yolo11n-b2.manifest.json'));
    assert.deepEqual(
      out.files.map((f) => [f.precision, path.basename(f.file)]),
      [
        ['fp32', 'yolo11n-b2.onnx'],
        ['int8', 'yolo11n-b2.int8.qdq.onnx'],
      ],
    );
    // YOLO11's head views its maps as [1, C, -1] and its attention as [1, heads, ...].
    for (const f of out.files) assert.ok(f.reshapes > 0, `${f.precision}: no Reshape made batched`);
    // Both slots of both files, each checked.
    assert.equal(out.agreements.filter((a) => a.agrees).length, out.agreements.length);
    assert.deepEqual([...new Set(out.agreements.map((a) => a.slot))].sort(), [0, 1]);
    const m = loadModelManifest(out.manifest);
    assert.equal(m.name, 'yolo11n-b2');
    assert.equal(m.input.batch, 2);
    assert.equal(m.files.htpContexts, undefined);
    assert.equal(m.files.sha256?.fp32, sha256File(path.join(dir, 'yolo11n-b2.onnx')));
    assert.equal(m.files.sha256?.int8, sha256File(path.join(dir, 'yolo11n-b2.int8.qdq.onnx')));
    assert.deepEqual(
      readOnnxModel(path.join(dir, 'yolo11n-b2.onnx')).inputs[0]!.dims,
      [2, 3, 640, 640],
    );
    assert.equal(m.classNames.length, 80);
  });

  it('refuses to overwrite without --force, a batch out of 2..16, other import options, and a copy of a copy', function () {
    const again = runCli(['model', 'import', manifest, '--batch', '2']);
    assert.equal(again.status, 2);
    assert.match(errorLines(again).join('\n'), /yolo11n-b2\.manifest\.json exists: pass --force/);
    for (const bad of ['1', '17', 'four']) {
      const r = runCli(['model', 'import', manifest, '--batch', bad]);
      assert.equal(r.status, 2, bad);
      assert.match(errorLines(r).join('\n'), /--batch .*: give an integer from 2 to 16/);
    }
    const raw = runCli(['model', 'import', manifest, '--batch', '2', '--raw-head']);
    assert.equal(raw.status, 2);
    assert.match(
      errorLines(raw).join('\n'),
      /--raw-head, --images, --python and --size do not apply/,
    );
    const copy = runCli([
      'model',
      'import',
      path.join(dir, 'yolo11n-b2.manifest.json'),
      '--batch',
      '4',
    ]);
    assert.equal(copy.status, 2);
    assert.match(errorLines(copy).join('\n'), /already a batch-2 copy: copy its original instead/);
  });

  it('model compile --batch names the copy to make when there is none', function () {
    const r = runCli(['model', 'compile', manifest, '--batch', '3']);
    assert.equal(r.status, 2);
    assert.match(
      errorLines(r).join('\n'),
      /yolo11n has no batch-3 copy .*: make it with 'htp-perception model import .* --batch 3'/,
    );
  });

  it('refuses a graph whose re-batching mixes images, naming the outputs that differ, and leaves nothing', function () {
    const mixDir = path.join(dir, 'mixing');
    fs.mkdirSync(mixDir);
    mixingModel(path.join(mixDir, 'mixing.onnx'));
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(mixDir, 'mixing.manifest.json'),
      JSON.stringify({ ...m, name: 'mixing', files: { fp32: 'mixing.onnx' } }),
    );
    const r = runCli([
      'model',
      'import',
      path.join(mixDir, 'mixing.manifest.json'),
      '--batch',
      '2',
    ]);
    assert.equal(r.status, 1, r.stderr);
    const err = errorLines(r).join('\n');
    assert.match(
      err,
      /mixing cannot run batched: the batch-2 copy does not compute what the original does per frame/,
    );
    assert.match(err, /fp32 output0 slot 0: max \|difference\|/);
    assert.deepEqual(fs.readdirSync(mixDir).sort(), ['mixing.manifest.json', 'mixing.onnx']);
  });
});
