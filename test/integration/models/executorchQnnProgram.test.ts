/**
 * Bootstrap step 78's QNN-delegated ExecuTorch program (the real yolov8s-fall.pt, ExecuTorch's QNN
 * flow, W8A16 for the QCS6490's Hexagon v68) through the engine's ExecuTorch plug-in and the wheel's
 * libexecutorch_backend_qnn.so: with QNN 2.51 as the wheels ship it, the load is refused naming the
 * QNN SDK mismatch; with the ABI shim of tools/executorch/qnn/ first on the library path it runs on
 * the x86-64 HTP simulator and finds what its ONNX twin finds. Each run is a process of its own:
 * the library path is read once, and a process keeps the first libQnnHtp.so it loads.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Detection } from '../../../src/core/headResults';
import { DEFAULT_QNN_LIBRARY } from '../../../src/engine/engineOptions';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import type { ProviderReport } from '../../../src/engine/engineSession';
import { boxIou } from '../../support/boxIou';
import { runCli } from '../../support/cliRun';
import {
  EXECUTORCH_QNN_DIR,
  EXECUTORCH_QNN_MANIFEST,
  QNN_SHIM_DIR,
  wheelQnnBackend,
} from '../../support/executorchQnn';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';

const OUT = EXECUTORCH_QNN_DIR;
const PROGRAM = EXECUTORCH_QNN_MANIFEST;
const SHIM_DIR = QNN_SHIM_DIR;
const TWIN = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const PHOTO = 'person.jpg';

interface ChildAnswer {
  readonly error?: { code: string; message: string };
  readonly report?: ProviderReport;
  readonly detections?: Detection[];
}

const MARK = 'HTP_QNN_PROGRAM ';

function withoutLibraryPath(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.LD_LIBRARY_PATH;
  return env;
}

/** Loads the program on provider htp in a child with `env` added (a library path), runs PHOTO. */
function runInChild(env: Record<string, string>): ChildAnswer {
  const dist = (...p: string[]) => JSON.stringify(repoPath('dist', ...p));
  const script = `
    const { ModelPipeline } = require(${dist('src', 'pipeline', 'modelPipeline.js')});
    const { photoFrame } = require(${dist('test', 'support', 'photos.js')});
    const say = (o) => process.stdout.write('\\n${MARK}' + JSON.stringify(o) + '\\n');
    (async () => {
      let p;
      try {
        p = await ModelPipeline.load(${JSON.stringify(PROGRAM)}, { provider: 'htp', precision: 'fp32', threads: 2 });
        const r = await p.run(await photoFrame(${JSON.stringify(PHOTO)}));
        say({ report: p.providerReport, detections: r.detections });
      } catch (e) {
        say({ error: { code: e.code, message: e.message } });
      } finally {
        if (p) p.dispose();
      }
    })();`;
  const r = spawnSync(process.execPath, ['-e', script], {
    env: { ...withoutLibraryPath(), HTP_EXECUTORCH_QNN_BACKEND: wheelQnnBackend(), ...env },
    encoding: 'utf8',
    timeout: 150_000,
    maxBuffer: 64 << 20,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith(MARK));
  assert.ok(
    line,
    `no answer from the child (status ${r.status}, signal ${r.signal}): ${r.stderr.slice(-2000)}`,
  );
  return JSON.parse(line.slice(MARK.length)) as ChildAnswer;
}

describe('a QNN-delegated ExecuTorch program with real weights (bootstrap step 78)', function () {
  this.timeout(200_000);

  before(() => {
    assert.ok(fs.existsSync(PROGRAM), `${PROGRAM} missing: run scripts/bootstrap.sh 78`);
    assert.ok(
      fs.existsSync(path.join(SHIM_DIR, 'libQnnHtp.so')),
      `the ABI shim missing: run scripts/bootstrap.sh 78`,
    );
  });

  it('with the engine’s own QNN 2.51 (the onnxruntime-qnn wheel’s): refused at load, naming the QNN SDK mismatch and the library', () => {
    // Nothing on the library path: the plug-in takes the QNN runtime beside htp.provider_library.
    const a = runInChild({});
    assert.ok(a.error, `loaded: ${JSON.stringify(a.report)}`);
    assert.equal(a.error.code, 'ERR_PROVIDER_UNAVAILABLE');
    const where = path
      .join(path.dirname(DEFAULT_QNN_LIBRARY), 'libQnnHtp.so')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(
      a.error.message,
      new RegExp(
        `yolov8s-fall_qnn\\.pte: method forward could not be loaded: .*QnnBackend.*; QNN refuses the HTP device as ExecuTorch's QNN backend describes it \\(error 14001\\): ${where} \\(QNN core API 2\\.\\d+\\.\\d+, HTP API \\d+\\.\\d+\\.\\d+\\) reads the device's SoC model 4 bytes further on`,
      ),
    );
  });

  it('with no QNN runtime anywhere: refused, naming libQnnHtp.so', () => {
    const a = runInChild({
      HTP_QNN_PROVIDER_LIBRARY: '/nonexistent/libonnxruntime_providers_qnn.so',
    });
    assert.equal(a.error?.code, 'ERR_PROVIDER_UNAVAILABLE');
    assert.match(
      a.error.message,
      /QNN's HTP library cannot be opened \(libQnnHtp\.so: cannot open shared object file/,
    );
  });

  it('through the ABI shim on the HTP simulator: wholly on QnnBackend, the ONNX twin’s detections', async () => {
    const a = runInChild({ LD_LIBRARY_PATH: SHIM_DIR });
    assert.equal(a.error, undefined, a.error?.message);
    const report = a.report!;
    assert.equal(report.runtime, 'executorch');
    assert.deepEqual(report.delegates, ['QnnBackend']);
    assert.deepEqual(report.nodesByProvider, { QnnBackend: 1 });
    assert.equal(report.fullyAccelerated, true);

    const twin = await ModelPipeline.load(TWIN, { provider: 'cpu', precision: 'fp32', threads: 2 });
    let want: Detection[];
    try {
      const r = await twin.run(await photoFrame(PHOTO));
      if (r.task !== 'detect') throw new Error(`detect expected, got ${r.task}`);
      want = r.detections;
    } finally {
      twin.dispose();
    }
    const got = a.detections!;
    assert.ok(want.length >= 1, 'the twin finds nothing on the photo');
    // W8A16 against FP32: the same objects, the boxes close, the scores within what this program
    // drifts on the 18 holdout photos (bench:executorch-qnn, docs/models.md: at most 0.281, mean
    // 0.079; 0.117 on this photo's one detection, 2026-12-02).
    assert.equal(got.length, want.length, `${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    got.forEach((d, i) => {
      const e = want[i]!;
      assert.equal(d.classId, e.classId, `#${i}`);
      assert.ok(boxIou(d.box, e.box) >= 0.9, `#${i}: IoU ${boxIou(d.box, e.box)}`);
      assert.ok(Math.abs(d.score - e.score) <= 0.2, `#${i}: ${d.score} vs ${e.score}`);
    });
  });

  describe('doctor --models: a row for each QNN-delegated program, loaded as the node loads it', () => {
    const CHECK = 'ExecuTorch QNN yolov8s-fall-executorch-qnn';
    type Row = { check: string; status: string; detail: string; fix?: string };
    function doctorRows(models: string, env: NodeJS.ProcessEnv): Row[] {
      const r = runCli(['doctor', '--json', '--no-offload', '--models', models], {
        env,
        timeoutMs: 150_000,
      });
      return (JSON.parse(r.stdout) as { rows: Row[] }).rows;
    }

    it('names what stops it: no QNN backend library, then the QNN SDK mismatch; passes through the shim', () => {
      const missing = doctorRows(OUT, withoutLibraryPath()).find((r) => r.check === CHECK);
      assert.equal(missing?.status, 'fail');
      assert.match(
        missing.detail,
        /delegates to QnnBackend, but ExecuTorch's QNN backend library is not here/,
      );
      assert.match(
        missing.fix ?? '',
        /built against this machine's QNN runtime.*HTP_EXECUTORCH_QNN_BACKEND/,
      );

      const backend = { ...withoutLibraryPath(), HTP_EXECUTORCH_QNN_BACKEND: wheelQnnBackend() };
      const mismatch = doctorRows(OUT, backend).find((r) => r.check === CHECK);
      assert.equal(mismatch?.status, 'fail');
      assert.match(
        mismatch.detail,
        /QNN refuses the HTP device as ExecuTorch's QNN backend describes it \(error 14001\)/,
      );

      const shimmed = doctorRows(OUT, { ...backend, LD_LIBRARY_PATH: SHIM_DIR }).find(
        (r) => r.check === CHECK,
      );
      assert.equal(shimmed?.status, 'ok', shimmed?.detail);
      assert.equal(shimmed.detail, 'loads (the x86-64 HTP simulator, not a device): QnnBackend 1');
    });

    it('no row for a program that does not call QnnBackend', () => {
      const rows = doctorRows(repoPath('models', 'yolov8-fall-executorch'), process.env);
      assert.ok(rows.some((r) => r.check === 'manifest yolov8s-fall-executorch'));
      assert.deepEqual(
        rows.filter((r) => r.check.startsWith('ExecuTorch QNN')),
        [],
      );
    });
  });
});
