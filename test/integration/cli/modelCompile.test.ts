/**
 * `htp-perception model compile` on this machine's QNN HTP simulator (x86-64 onnxruntime-qnn):
 * the user's path from the bootstrap's real-weight Ultralytics export alone (model import, model
 * quantize, model compile for qcs6490) in a temporary folder, verified by the command, recorded in
 * that folder's manifest, then loaded by the pipeline and by a perception node over real DDS. A simulator run takes seconds: one frame each.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { DEFAULT_QNN_LIBRARY } from '../../../src/engine/engineOptions';
import type { CompileReport } from '../../../src/cli/compile/compileHtpContext';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { sha256File } from '../../../src/util/sha256File';
import type { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';
import { tempDir } from '../../support/tempDir';
import { type CliRun as Run, errorLines, runCli } from '../../support/cliRun';
import { repoPath } from '../../support/paths';
import { quantizedFall } from '../../support/quantizedFall';

const FALL_DIR = repoPath('models', 'yolov8-fall');

const cli = (args: string[], timeoutMs = 60_000): Run => runCli(args, { timeoutMs });

function assertUsageError(r: Run, pattern: RegExp): void {
  assert.equal(r.status, 2, `${r.stdout}\n${r.stderr}`);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] ?? '', pattern);
}

/** What the bootstrap's folder holds, to prove the command never writes there. */
function snapshot(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => {
      const s = fs.statSync(path.join(dir, f));
      return `${f} ${s.ino} ${s.size} ${s.mtimeMs}`;
    });
}

describe('htp-perception model compile', function () {
  this.timeout(300_000);

  it('bad usage exits 2 with one line (no model loaded)', function () {
    assertUsageError(cli(['model', 'compile']), /model compile needs NAME/);
    assertUsageError(
      cli(['model', 'compile', 'yolov8s-fall', '--soc', 'sm8550']),
      /--soc sm8550: unknown SoC; known: qcs6490 \(htp_arch 68, soc_model 35\)/,
    );
    assertUsageError(
      cli(['model', 'compile', 'yolov8s-fall', '--precision', 'int4']),
      /--precision int4: expected int8, w8a16 or fp32/,
    );
    assertUsageError(
      cli(['model', 'compile', 'yolov8s-fall', '--vtcm-mb', '99']),
      /--vtcm-mb 99: expected an integer 0\.\.64/,
    );
    assertUsageError(cli(['model', 'compile', 'no-such-model']), /no-such-model: no such manifest/);
    assertUsageError(
      cli(['model', 'compile', path.join(FALL_DIR, 'yolov8s-fall.onnx')]),
      /run 'htp-perception model import .*yolov8s-fall\.onnx' first/,
    );
    assertUsageError(cli(['model', 'compile', 'a', 'b']), /takes one model, got 'b'/);
    const bare = tempDir('htp-compile-bare-');
    fs.copyFileSync(
      path.join(FALL_DIR, 'yolov8s-fall.manifest.json'),
      path.join(bare, 'yolov8s-fall.manifest.json'),
    );
    assertUsageError(
      cli(['model', 'compile', path.join(bare, 'yolov8s-fall.manifest.json')]),
      /files\.fp32: .* does not exist/,
    );
    assertUsageError(cli(['model', 'compile', 'x', '--bogus']), /--bogus.*see --help/);
    const help = cli(['model', 'compile', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--soc S {10}target SoC \(default qcs6490\)/);
  });

  describe('on the HTP simulator', function () {
    let dir: string;
    let manifestPath: string;
    let report: CompileReport & { recorded: boolean };
    let bootstrapBefore: string[];

    before(function () {
      if (!(os.platform() === 'linux' && os.arch() === 'x64')) this.skip();
      assert.ok(fs.existsSync(DEFAULT_QNN_LIBRARY), `${DEFAULT_QNN_LIBRARY} missing`);
      bootstrapBefore = snapshot(FALL_DIR);
      // The user's path, as docs/models.md tells it: only the Ultralytics export (linked, read
      // only) in a folder of its own, then import -> quantize (calibrated and validated as the
      // bootstrap does; shared with the quantize tests, test/support/quantizedFall.ts) -> compile.
      // Every file the commands write is new in that folder.
      const fall = quantizedFall();
      dir = fall.dir;
      manifestPath = fall.manifest;
      assert.equal(fall.imported.status, 0, `${fall.imported.stdout}\n${fall.imported.stderr}`);
      assert.ok(fs.existsSync(manifestPath), `model import wrote no ${manifestPath}`);
      assert.equal(fall.quantized.status, 0, `${fall.quantized.stdout}\n${fall.quantized.stderr}`);
      // Same recipe, same photos: the INT8 file the bootstrap made, byte for byte.
      assert.equal(
        sha256File(path.join(dir, 'yolov8s-fall.int8.qdq.onnx')),
        sha256File(path.join(FALL_DIR, 'yolov8s-fall.int8.qdq.onnx')),
      );
      const r = cli(['model', 'compile', manifestPath, '--json'], 240_000);
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      report = JSON.parse(r.stdout) as typeof report;
    });

    it('compiles for qcs6490 (v68 / 35): same placement and the same outputs when loaded back', function () {
      assert.equal(report.soc, 'qcs6490');
      assert.deepEqual([report.htpArch, report.socModel], [68, 35]);
      const { onnx, compiled } = report.placement;
      assert.ok(onnx.qnnNodes > 800, `QNN took ${onnx.qnnNodes} nodes`);
      // Each QNN partition becomes one EPContext node; the CPU part must be the same nodes.
      assert.ok(compiled.qnnNodes >= 1 && compiled.qnnNodes < onnx.qnnNodes);
      assert.deepEqual(compiled.cpuNodes, onnx.cpuNodes);
      // The float decode tail and the input quantize stay on the CPU (docs/engine.md).
      assert.ok(onnx.cpuNodes.includes('images_QuantizeLinear (QuantizeLinear)'));
      assert.equal(report.samePlacement, true);
      assert.equal(report.outputs.length, 1);
      const [o] = report.outputs;
      assert.equal(o?.name, 'output0');
      assert.equal(o?.elements, 6 * 8400);
      assert.ok(o!.maxAbsDiff <= o!.bound, `output0 differs by ${o?.maxAbsDiff}`);
      assert.equal(report.outputsMatch, true);
    });

    it('writes <name>.qcs6490.ctx.onnx beside the model and records it; the bootstrap folder is untouched', function () {
      const out = path.join(dir, 'yolov8s-fall.qcs6490.ctx.onnx');
      assert.equal(report.output, out);
      assert.equal(fs.statSync(out).size, report.bytes);
      assert.deepEqual(
        fs.readdirSync(dir).filter((f) => f.includes('.tmp')),
        [],
        'no temporary file left',
      );
      const m = loadModelManifest(manifestPath);
      assert.deepEqual(m.files.htpContexts, [
        {
          file: 'yolov8s-fall.qcs6490.ctx.onnx',
          soc: 'qcs6490',
          precision: 'int8',
          htpArch: 68,
          socModel: 35,
          sourceSha256: sha256File(path.join(dir, 'yolov8s-fall.int8.qdq.onnx')),
        },
      ]);
      assert.deepEqual(snapshot(FALL_DIR), bootstrapBefore);
      assertUsageError(cli(['model', 'compile', manifestPath]), /exists: pass --force/);
    });

    it('a pipeline with provider htp and int8 loads the recorded binary by itself', async function () {
      const p = await ModelPipeline.load(manifestPath, {
        provider: 'htp',
        precision: 'int8',
        threads: 0,
      });
      try {
        const r = p.providerReport;
        assert.equal(r.modelSource, 'context_cache');
        assert.equal(r.nodesByProvider.QNNExecutionProvider, report.placement.compiled.qnnNodes);
        assert.deepEqual(
          r.cpuNodes.map((n) => `${n.name} (${n.opType})`).sort(),
          report.placement.onnx.cpuNodes,
        );
      } finally {
        p.dispose();
      }
    });

    describe('a perception node over real DDS', function () {
      const bed = useRosTestBed('person.jpg');

      it('loads the compiled model, reports its placement in the log and diagnostics, and detects', async function () {
        const node = bed.own(
          startNode('perceptionNode', 'det_ctx', [
            `model:=${manifestPath}`,
            'provider:=htp',
            'precision:=int8',
            // The x86-64 simulator takes seconds per frame: past the default deadline of a board.
            'run_deadline_ms:=120000',
          ]),
        );
        const loaded = await node.waitFor(
          /model yolov8s-fall \(int8\) on htp from the compiled context binary (\S+): nodes by provider (\{.*?\})/,
          90_000,
        );
        assert.equal(loaded[1], path.join(dir, 'yolov8s-fall.qcs6490.ctx.onnx'));
        const nodes = JSON.parse(loaded[2]!) as Record<string, number>;
        assert.deepEqual(nodes, report.placement.compiled.nodesByProvider);
        const diag = await bed.client.diagnostics('det_ctx', 10);
        assert.equal(diag.values.model_source, JSON.stringify({ 'yolov8s-fall': 'context_cache' }));
        assert.deepEqual(JSON.parse(diag.values.nodes_by_provider ?? '{}'), {
          'yolov8s-fall': report.placement.compiled.nodesByProvider,
        });
        // The decode tail on the CPU is reported, never hidden.
        assert.match(
          diag.message,
          /HTP requested but 15 graph nodes of yolov8s-fall run on the CPU/,
        );
        await bed.client.watch('/det_ctx/detections', 'detections');
        bed.own(startPhotoSource('src_ctx', bed.photoDir, 1, 'cam'));
        const [msg] = await bed.client.take<DetectionsMsg>('/det_ctx/detections', 1, 120);
        assert.ok(msg, 'no detections message from the compiled model');
        assert.ok(
          msg.items.some((d) => d.class_id === '0'),
          `the person in person.jpg: ${JSON.stringify(msg)}`,
        );
      });
    });
  });
});
