/**
 * `htp-perception model import` on an Ultralytics format=qnn export: bootstrap step 77's real
 * yolov8s-fall_qnn.onnx (the exporter's QNN context binary for Hexagon v68, W8A16) with the FP32
 * channel-last yolov8s-fall.onnx it writes beside it, laid out as the exporter leaves them; the
 * refusals (no FP32 file beside it, files of two exports, an EP context model of someone else).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import {
  intAttribute,
  metadataPropsBytes,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  textField,
  valueInfoProto,
} from '../../../src/model/onnxWriter';
import { sha256File } from '../../../src/util/sha256File';
import { errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { PHOTO_DIR } from '../../support/photos';
import { tempDir } from '../../support/tempDir';

const EXPORTED = repoPath('models', 'yolov8-fall-qnn');

/** A folder laid out as the exporter leaves it: links to the bootstrap's two files. */
function exportFolder(withFp32 = true, withBinary = true): string {
  const dir = tempDir('htp-qnn-import-');
  if (withBinary)
    fs.symlinkSync(
      path.join(EXPORTED, 'yolov8s-fall_qnn.onnx'),
      path.join(dir, 'yolov8s-fall_qnn.onnx'),
    );
  if (withFp32)
    fs.symlinkSync(path.join(EXPORTED, 'yolov8s-fall.onnx'), path.join(dir, 'yolov8s-fall.onnx'));
  return dir;
}

describe('htp-perception model import: an Ultralytics format=qnn export', function () {
  this.timeout(120_000);

  it("records the binary as the FP32 graph's w8a16 HTP context, without edits", () => {
    const dir = exportFolder();
    const r = runCli(['model', 'import', path.join(dir, 'yolov8s-fall_qnn.onnx'), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { manifest: string; kind: string; name: string };
    assert.deepEqual(
      [out.manifest, out.kind, out.name],
      [path.join(dir, 'yolov8s-fall-qnn.manifest.json'), 'ultralytics-qnn', 'yolov8s-fall-qnn'],
    );
    const m = loadModelManifest(out.manifest);
    assert.deepEqual(
      [m.task, m.family, m.outputs.format, m.classNames],
      ['detect', 'yolov8', 'ultralytics-packed', ['Normal', 'Fall']],
    );
    // The exporter's channel-last input, 0..1 floats.
    assert.deepEqual(
      [m.input.name, m.input.width, m.input.height, m.input.layout, m.input.dtype],
      ['images', 640, 640, 'NHWC', 'float32'],
    );
    assert.equal(m.files.fp32, 'yolov8s-fall.onnx');
    assert.equal(m.files.w8a16, undefined, 'no W8A16 file of ours: the binary is the W8A16 model');
    assert.deepEqual(m.files.htpContexts, [
      {
        file: 'yolov8s-fall_qnn.onnx',
        soc: 'qcs6490',
        precision: 'w8a16',
        htpArch: 68,
        socModel: 35,
        sourceSha256: sha256File(path.join(dir, 'yolov8s-fall.onnx')),
        exportedBy: 'ultralytics',
      },
    ]);
    assert.equal(m.files.sha256?.fp32, sha256File(path.join(dir, 'yolov8s-fall.onnx')));
    const list = runCli(['model', 'list', '--json'], {
      env: { ...process.env, HTP_PERCEPTION_MODEL_PATH: dir },
    });
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /"yolov8s-fall-qnn"/);
  });

  it('validates the binary on the HTP against FP32 with model quantize --validate-only --precision w8a16', () => {
    const dir = exportFolder();
    assert.equal(runCli(['model', 'import', path.join(dir, 'yolov8s-fall_qnn.onnx')]).status, 0);
    const photos = path.join(dir, 'photos');
    fs.mkdirSync(photos);
    fs.copyFileSync(path.join(PHOTO_DIR, 'person.jpg'), path.join(photos, 'person.jpg'));
    const manifest = path.join(dir, 'yolov8s-fall-qnn.manifest.json');
    // ~20 s: one photo through the QNN simulator.
    const r = runCli(
      [
        'model',
        'quantize',
        manifest,
        '--validate-only',
        '--precision',
        'w8a16',
        '--holdout',
        photos,
      ],
      { timeoutMs: 300_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /validating .*yolov8s-fall_qnn\.onnx on the HTP on 1 image/);
    assert.match(
      r.stdout,
      /W8A16 vs FP32, yolov8s-fall-qnn \(detect\), 1 validation image\(s\), W8A16 on the HTP/,
    );
    const j = JSON.parse(
      fs.readFileSync(path.join(dir, 'yolov8s-fall-qnn.w8a16.validation.json'), 'utf8'),
    ) as {
      precision: string;
      recipe: string;
      validation: { engine: string };
      agreement: { detections: { fp32: number; int8: number; matchRate: number } };
    };
    assert.equal(j.precision, 'w8a16');
    assert.match(j.recipe, /^Ultralytics format=qnn/);
    assert.match(j.validation.engine, /the context binary on the QNN HTP provider/);
    // person.jpg: the man and the dog, both found by both.
    assert.deepEqual(j.agreement.detections.fp32, 2);
    assert.equal(j.agreement.detections.matchRate, 1);
  });

  it('refuses it without the FP32 file beside it, naming that file', () => {
    const dir = exportFolder(false);
    const r = runCli(['model', 'import', path.join(dir, 'yolov8s-fall_qnn.onnx')]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(
      errorLines(r).join('\n'),
      /writes the FP32 channel-last model it quantized \(yolov8s-fall\.onnx\) beside yolov8s-fall_qnn\.onnx; it is needed too/,
    );
    assert.equal(fs.existsSync(path.join(dir, 'yolov8s-fall-qnn.manifest.json')), false);
  });

  it('refuses files of two exports (the channel-first ONNX export beside it)', () => {
    const dir = exportFolder(false);
    fs.symlinkSync(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
      path.join(dir, 'yolov8s-fall.onnx'),
    );
    const r = runCli(['model', 'import', path.join(dir, 'yolov8s-fall_qnn.onnx')]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(
      errorLines(r).join('\n'),
      /yolov8s-fall_qnn\.onnx and yolov8s-fall\.onnx are not the same model: inputs images float32\[1,640,640,3\] \/ images float32\[1,3,640,640\]/,
    );
  });

  it('refuses a binary compiled for another HTP than the SoC table knows, naming it', () => {
    for (const [name, said] of [
      ['73', 'Hexagon v73'],
      ['iq-8275', "the target 'iq-8275'"],
    ] as const) {
      const dir = exportFolder(true, false);
      // A later metadata entry wins (protobuf merging): the export's args, another target.
      fs.writeFileSync(
        path.join(dir, 'yolov8s-fall_qnn.onnx'),
        Buffer.concat([
          fs.readFileSync(path.join(EXPORTED, 'yolov8s-fall_qnn.onnx')),
          metadataPropsBytes({ args: `{'batch': 1, 'name': '${name}', 'quantize': 'w8a16'}` }),
        ]),
      );
      const r = runCli(['model', 'import', path.join(dir, 'yolov8s-fall_qnn.onnx')]);
      assert.equal(r.status, 2, r.stdout);
      assert.match(
        errorLines(r).join('\n'),
        new RegExp(`compiled for ${said}; the SoCs known here are qcs6490 \\(v68\\)`),
      );
    }
  });

  it('refuses an EP context model without Ultralytics metadata, saying what to do instead', () => {
    const dir = tempDir('htp-qnn-import-');
    const epContext = [
      ...nodeProto('EPContext', 'ctx', ['images'], ['output0'], [intAttribute('embed_mode', 1)]),
      ...textField(7, 'com.microsoft'),
    ];
    const file = path.join(dir, 'mine_ctx.onnx');
    fs.writeFileSync(
      file,
      modelProto({
        name: 'g',
        producer: 'onnxruntime',
        nodes: [epContext],
        initializers: [],
        inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 64, 64])],
        outputs: [valueInfoProto('output0', ONNX_FLOAT, [1, 6, 84])],
      }),
    );
    const r = runCli(['model', 'import', file]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(
      errorLines(r).join('\n'),
      /an ONNX Runtime EP context model \(1 EPContext node\(s\)\) without Ultralytics' metadata: .*run 'htp-perception model compile'/,
    );
  });
});
