import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { loadRgbFrame } from '../../../src/photos/photoFrames';
import { PHOTO_DIR, photoNames } from '../../support/photos';
import { CLI_MAIN, type CliRun as Run, errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { sha256File } from '../../../src/util/sha256File';
import {
  CALIBRATION_DIR,
  HOLDOUT_DIR,
  type QuantizedFall,
  quantizedFall,
} from '../../support/quantizedFall';
import { tempDir } from '../../support/tempDir';
import { type RunningProcess, startNode, startProcess } from '../../support/rosProcess';

const cli = (args: string[]): Run => runCli(args, { timeoutMs: 600_000 });

/** The one stderr line of a failed command (ONNX Runtime/QNN library chatter aside). */
function errorLine(r: Run): string {
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  return lines[0] ?? '';
}

interface ValidationJson {
  model: string;
  task: string;
  weights: string;
  meaningful: boolean;
  int8: string;
  calibration: { images: string[]; capturedFrom?: string };
  validation: { rule: string; images: string[]; cpuInt8Kernels: string };
  agreement: {
    task: string;
    images: number;
    detections?: {
      fp32: number;
      int8: number;
      matched: number;
      matchRate: number;
      meanIou: number | null;
      maxScoreDrift: number | null;
    };
    keypoints?: { persons: number };
  };
  thresholds: Record<string, number>;
  failures: string[];
  passed: boolean;
  notes: string[];
}

const readJson = (file: string): ValidationJson =>
  JSON.parse(fs.readFileSync(file, 'utf8')) as ValidationJson;

/**
 * A temporary model folder: the manifest copied (so the command may edit it), the FP32 model
 * linked (read only). The bootstrap's own INT8 file is never touched.
 */
function modelCopy(dir: string, folder: string, name: string, dropInt8 = false): string {
  const m = path.join(dir, 'model');
  fs.mkdirSync(m);
  const manifest = JSON.parse(
    fs.readFileSync(repoPath('models', folder, `${name}.manifest.json`), 'utf8'),
  ) as { files: { fp32: string; int8?: string } };
  fs.symlinkSync(
    repoPath('models', folder, manifest.files.fp32),
    path.join(m, manifest.files.fp32),
  );
  if (dropInt8) delete manifest.files.int8;
  const out = path.join(m, `${name}.manifest.json`);
  fs.writeFileSync(out, JSON.stringify(manifest, null, 2));
  return out;
}

function photoFolder(dir: string, name: string, photos: readonly string[]): string {
  const out = path.join(dir, name);
  fs.mkdirSync(out);
  for (const p of photos) fs.copyFileSync(path.join(PHOTO_DIR, p), path.join(out, p));
  return out;
}

describe('htp-perception model quantize (real quantizer, real engine, real models)', function () {
  this.timeout(600_000);

  describe('yolov8s-fall from its FP32 file, validated on held-out photos', function () {
    const dir = tempDir('htp-quantize-');
    let fall: QuantizedFall;
    let manifest: string;
    let json: string;
    let run: Run;
    /** Three photos: too few to split into calibration and validation. */
    let three: string;

    before(function () {
      // import + quantize with the bootstrap's recipe, once for this suite and the compile tests.
      fall = quantizedFall();
      assert.equal(fall.imported.status, 0, `${fall.imported.stdout}\n${fall.imported.stderr}`);
      ({ manifest, json } = fall);
      run = fall.quantized;
      three = photoFolder(dir, 'three', photoNames().slice(0, 3));
    });

    it('writes files.int8, reports agreement per image and in JSON, exits 0 within thresholds', function () {
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      const m = loadModelManifest(manifest);
      const int8 = m.modelPaths.int8!;
      assert.equal(path.dirname(int8), path.dirname(manifest), 'written beside the manifest');
      // int8 weights: about a quarter of the float file.
      assert.ok(fs.statSync(int8).size < fs.statSync(m.modelPaths.fp32).size / 2);
      // import recorded the FP32 file's checksum, so quantize records the INT8 file's.
      assert.deepEqual(m.files.sha256, {
        fp32: sha256File(m.modelPaths.fp32),
        int8: sha256File(int8),
      });
      assert.match(run.stdout, /recorded files\.sha256\.int8 in /);
      assert.deepEqual(
        fs.readdirSync(path.dirname(manifest)).filter((f) => f.includes('partial')),
        [],
        'no partial file left',
      );
      const r = readJson(json);
      assert.deepEqual(
        readJson(path.join(path.dirname(int8), 'yolov8s-fall.int8.validation.json')),
        r,
      );
      assert.equal(r.model, 'yolov8s-fall');
      assert.equal(r.task, 'detect');
      assert.equal(r.meaningful, true);
      assert.deepEqual(r.notes, []);
      assert.deepEqual(
        r.calibration.images.map((f) => path.basename(f)),
        fs.readdirSync(CALIBRATION_DIR).sort(),
      );
      assert.deepEqual(
        r.validation.images.map((f) => path.basename(f)),
        fs.readdirSync(HOLDOUT_DIR).sort(),
      );
      assert.equal(r.validation.rule, 'the --holdout folder');
      const d = r.agreement.detections!;
      assert.equal(r.agreement.images, fs.readdirSync(HOLDOUT_DIR).length);
      assert.ok(d.fp32 > 0, 'FP32 finds something on the held-out photos');
      assert.ok(d.matchRate >= 0.5 && d.matchRate <= 1);
      assert.ok(d.meanIou !== null && d.meanIou >= 0.5 && d.meanIou <= 1);
      assert.ok(d.maxScoreDrift !== null && d.maxScoreDrift >= 0 && d.maxScoreDrift < 1);
      assert.deepEqual(r.thresholds, { minMatchRate: 0.5 });
      assert.deepEqual([r.passed, r.failures], [true, []]);
      assert.match(
        run.stdout,
        new RegExp(
          `quantizing yolov8s-fall\\.onnx to INT8 on ${photoNames().length} calibration image\\(s\\); ` +
            `validating on ${fs.readdirSync(HOLDOUT_DIR).length}`,
        ),
      );
      assert.match(
        run.stdout,
        /matched \(IoU >= 0\.5, same class\)\s+\d+, rate [01]\.\d{3}\s+>= 0\.5 \(--min-match-rate\)/,
      );
      assert.match(run.stdout, /INT8 is within every threshold given/);
    });

    it('a threshold INT8 cannot meet: exit 1, the miss named on stdout and in the JSON', function () {
      const missJson = path.join(dir, 'threshold-miss.json');
      const r = cli([
        'model',
        'quantize',
        manifest,
        '--validate-only',
        '--holdout',
        HOLDOUT_DIR,
        '--json',
        missJson,
        '--max-score-drift',
        '0',
        '--min-box-iou',
        '1',
      ]);
      assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
      assert.match(
        r.stdout,
        /INT8 is NOT good enough: --min-box-iou 1: got 0\.\d{3}; --max-score-drift 0: got 0\.\d{3}/,
      );
      const j = readJson(missJson);
      assert.equal(j.passed, false);
      assert.equal(j.failures.length, 2);
    });

    it('bad usage and bad input: exit 2 with one line saying what is wrong', function () {
      const cases: [string[], RegExp][] = [
        [
          ['model', 'quantize', manifest, '--images', CALIBRATION_DIR, '--min-miou', '0.9'],
          /--min-miou does not apply to yolov8s-fall \(task detect\)/,
        ],
        [
          ['model', 'quantize', 'no-such-model', '--images', CALIBRATION_DIR],
          /no-such-model: no model of that name under models\/ and no such manifest file/,
        ],
        [
          ['model', 'quantize', manifest, '--images', path.join(dir, 'nope')],
          /--images .*nope: no such folder/,
        ],
        [
          [
            'model',
            'quantize',
            manifest,
            '--images',
            CALIBRATION_DIR,
            '--holdout',
            CALIBRATION_DIR,
          ],
          new RegExp(
            `--holdout shares ${photoNames().length} image\\(s\\) with the calibration images`,
          ),
        ],
        [
          ['model', 'quantize', manifest, '--images', three],
          /3 image\(s\) leave none for validation.*--holdout DIR/,
        ],
        [
          [
            'model',
            'quantize',
            repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
            '--images',
            CALIBRATION_DIR,
          ],
          /quantize needs a manifest; run 'htp-perception model import/,
        ],
        [['model', 'quantize', manifest], /needs either --images DIR or --topic T --frames N/],
      ];
      for (const [args, pattern] of cases) {
        const r = cli(args);
        assert.equal(r.status, 2, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
        assert.match(errorLine(r), new RegExp(`^htp-perception: .*${pattern.source}`));
      }
    });

    it('a model file that is not the one its manifest records: refused (exit 2) unless --allow-model-mismatch', function () {
      // The quantized model in a folder of its own, its manifest recording another FP32 file.
      const other = tempDir('htp-fall-mismatch-');
      const m = loadModelManifest(manifest);
      for (const f of [m.modelPaths.fp32, m.modelPaths.int8!]) {
        fs.symlinkSync(f, path.join(other, path.basename(f)));
      }
      const data = readJson(manifest) as unknown as { files: { sha256: Record<string, string> } };
      const recorded = '0'.repeat(64);
      data.files.sha256.fp32 = recorded;
      const tampered = path.join(other, 'yolov8s-fall.manifest.json');
      fs.writeFileSync(tampered, JSON.stringify(data));
      const refused = cli(['model', 'quantize', tampered, '--images', CALIBRATION_DIR]);
      assert.equal(refused.status, 2, `${refused.stdout}\n${refused.stderr}`);
      const line = errorLine(refused);
      for (const part of [
        path.join(other, 'yolov8s-fall.onnx'),
        recorded,
        sha256File(m.modelPaths.fp32),
        '--allow-model-mismatch',
      ]) {
        assert.ok(line.includes(part), `'${line}' should name ${part}`);
      }
      assert.deepEqual(fs.readdirSync(other).sort(), [
        'yolov8s-fall.int8.qdq.onnx',
        'yolov8s-fall.manifest.json',
        'yolov8s-fall.onnx',
      ]);
      const allowed = cli([
        'model',
        'quantize',
        tampered,
        '--validate-only',
        '--holdout',
        three,
        '--allow-model-mismatch',
      ]);
      assert.equal(allowed.status, 0, `${allowed.stdout}\n${allowed.stderr}`);
      assert.match(allowed.stdout, /validating .*yolov8s-fall\.int8\.qdq\.onnx on 3 image/);
    });

    it('no Python for the quantizer: exit 1 and how to install it', function () {
      const r = cli([
        'model',
        'quantize',
        manifest,
        '--images',
        CALIBRATION_DIR,
        '--python',
        path.join(dir, 'no-python'),
      ]);
      assert.equal(r.status, 1);
      assert.match(
        errorLine(r),
        /no Python for the ONNX Runtime quantizer at .*bootstrap\.sh 25-pytools/,
      );
    });
  });

  describe('--topic: calibration frames from a live camera over ROS 2', function () {
    const dir = tempDir('htp-quantize-topic-');
    const procs: RunningProcess[] = [];
    after(async () => {
      await Promise.all(procs.splice(0).map((p) => p.stop()));
    });

    it('captures N frames from image_source (bgr8) as PNGs, quantizes on them, adds files.int8', async function () {
      // yolov8n-pose (untrained, small): the capture path, not accuracy, is under test here.
      const manifest = modelCopy(dir, 'yolov8n-pose', 'yolov8n-pose', true);
      const shown = ['person.jpg', 'horses.jpg'];
      const camera = photoFolder(dir, 'camera', shown);
      const holdout = photoFolder(dir, 'holdout', ['dog.jpg']);
      const captured = path.join(dir, 'captured');
      procs.push(
        startNode(
          'imageSourceNode',
          'quantize_cam',
          [`directory:=${camera}`, 'rate_hz:=5.0', 'encoding:=bgr8'],
          ['-r', 'image:=/quantize_cam/image'],
        ),
      );
      const q = startProcess(process.execPath, [
        CLI_MAIN,
        'model',
        'quantize',
        manifest,
        '--topic',
        '/quantize_cam/image',
        '--frames',
        '3',
        '--interval',
        '0.1',
        '--capture-dir',
        captured,
        '--holdout',
        holdout,
      ]);
      procs.push(q);
      const code = await q.exited();
      assert.equal(code, 0, `${q.stdout()}\n${q.stderr()}`);
      assert.match(q.stdout(), new RegExp(`captured 3 frame\\(s\\) into ${captured}`));
      const frames = fs.readdirSync(captured).sort();
      assert.deepEqual(frames, ['frame-0001.png', 'frame-0002.png', 'frame-0003.png']);
      // Each PNG holds exactly the pixels of one of the photos the camera showed (bgr8 -> rgb).
      const sources = await Promise.all(
        shown.map(async (p) => (await loadRgbFrame(path.join(camera, p))).data),
      );
      for (const f of frames) {
        const png = await sharp(path.join(captured, f)).raw().toBuffer();
        assert.ok(
          sources.some((s) => Buffer.from(s).equals(png)),
          `${f} is one of the shown photos`,
        );
      }
      const m = loadModelManifest(manifest);
      assert.equal(path.basename(m.modelPaths.int8 ?? ''), 'yolov8n-pose.int8.qdq.onnx');
      assert.ok(fs.existsSync(m.modelPaths.int8!));
      const r = readJson(path.join(path.dirname(manifest), 'yolov8n-pose.int8.validation.json'));
      assert.equal(r.calibration.capturedFrom, captured);
      assert.equal(r.calibration.images.length, 3);
      assert.equal(r.task, 'pose');
      assert.equal(r.meaningful, false);
      assert.match(r.notes[0] ?? '', /weights untrained/);
      assert.match(q.stdout(), /note: weights untrained/);
    });

    it('a topic nobody publishes: exit 1 naming the topic and what to check', async function () {
      const q = startProcess(process.execPath, [
        CLI_MAIN,
        'model',
        'quantize',
        modelCopy(fs.mkdtempSync(path.join(dir, 'silent-')), 'yolov8n-pose', 'yolov8n-pose'),
        '--topic',
        '/nobody/image',
        '--frames',
        '1',
        '--capture-timeout',
        '2',
      ]);
      procs.push(q);
      assert.equal(await q.exited(), 1, q.stderr());
      assert.match(
        q.stderr(),
        /\/nobody\/image: captured 0 of 1 frames in 2 s: no message arrived/,
      );
    });
  });
});
