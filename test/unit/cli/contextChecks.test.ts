import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type ContextTarget,
  contextRows,
  manifestContextRows,
} from '../../../src/cli/doctor/contextChecks';
import type { BoardSoc } from '../../../src/cli/doctor/deviceChecks';
import {
  type DoctorRow,
  doctorExitCode,
  formatDoctorTable,
} from '../../../src/cli/doctor/doctorRow';
import { findHtpSoc, type HtpSoc } from '../../../src/config/htpSocs';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { checkHtpContext, selectHtpContext } from '../../../src/pipeline/selectHtpContext';
import { sha256File } from '../../../src/util/sha256File';
import { repoPath } from '../../support/paths';

const FALL = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const QCS6490 = findHtpSoc('qcs6490')!;
const THIS_BOARD: ContextTarget = {
  board: { chip: 'QCS6490', source: '/sys/devices/soc0/machine', soc: QCS6490 },
  noBoard: 'unused',
};
/** A SoC the table may hold one day (the values do not matter here, only that it is another). */
const QCS8550: HtpSoc = { name: 'qcs8550', htpArch: 73, socModel: 43, description: 'test' };

interface Model {
  readonly manifest: string;
  readonly int8: string;
  readonly context: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function row(rows: readonly DoctorRow[], check: string): DoctorRow {
  const r = rows.find((x) => x.check === check);
  assert.ok(r, `no row '${check}' in ${rows.map((x) => x.check).join(', ')}`);
  return r;
}

describe('doctor rows for recorded HTP context binaries', function () {
  let models = '';
  beforeEach(() => {
    models = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-doctor-ctx-'));
  });
  // Removed after every test, passed or failed.
  afterEach(() => fs.rmSync(models, { recursive: true, force: true }));

  /**
   * A model folder under `models` (a copy of the fall manifest renamed, stand-in model files) and,
   * with `compiled`, a qcs6490 int8 binary recorded as `model compile` records one.
   */
  function addModel(name: string, compiled: boolean): Model {
    const dir = path.join(models, name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, `${name}.onnx`), `fp32 ${name}`);
    const int8 = path.join(dir, `${name}.int8.qdq.onnx`);
    fs.writeFileSync(int8, `int8 ${name}`);
    const context = path.join(dir, `${name}.qcs6490.ctx.onnx`);
    const data = JSON.parse(fs.readFileSync(FALL, 'utf8')) as Record<string, unknown>;
    data.name = name;
    data.files = { fp32: `${name}.onnx`, int8: path.basename(int8) };
    if (compiled) {
      fs.writeFileSync(context, `compiled ${name}`);
      // The entry as `model compile` records it.
      (data.files as Record<string, unknown>).htpContexts = [
        {
          file: path.basename(context),
          soc: 'qcs6490',
          precision: 'int8',
          htpArch: QCS6490.htpArch,
          socModel: QCS6490.socModel,
          sourceSha256: sha256File(int8),
        },
      ];
    }
    const manifest = path.join(dir, `${name}.manifest.json`);
    fs.writeFileSync(manifest, JSON.stringify(data));
    return { manifest, int8, context };
  }

  it('a present binary compiled from the current model is OK; models without one share one row', function () {
    addModel('fall-a', true);
    addModel('fall-b', false);
    addModel('fall-c', false);
    const rows = contextRows(models, THIS_BOARD);
    assert.deepEqual(
      rows.map((r) => [r.check, r.status]),
      [
        ['context fall-a qcs6490/int8', 'ok'],
        ['context binaries', 'ok'],
      ],
    );
    assert.equal(
      rows[0]?.detail,
      'fall-a/fall-a.qcs6490.ctx.onnx, compiled from the current files.int8, for this board (QCS6490)',
    );
    assert.match(
      rows[1]?.detail ?? '',
      /^none recorded for fall-b, fall-c: .*'htp-perception model compile NAME --soc qcs6490'/,
    );
    assert.equal(doctorExitCode(rows), 0);
  });

  it('every model compiled: no informational row', function () {
    addModel('fall-a', true);
    assert.deepEqual(
      contextRows(models, THIS_BOARD).map((r) => r.check),
      ['context fall-a qcs6490/int8'],
    );
  });

  it('a missing binary fails, naming the file and the compile command for its SoC', function () {
    const a = addModel('fall-a', true);
    fs.rmSync(a.context);
    const rows = contextRows(models, THIS_BOARD);
    const r = row(rows, 'context fall-a qcs6490/int8');
    assert.equal(r.status, 'fail');
    assert.match(r.detail, /^fall-a\/fall-a\.qcs6490\.ctx\.onnx missing: a node running fall-a/);
    // Outside the package's models/ the name would not find this manifest: its path does.
    assert.equal(
      r.fix,
      `htp-perception model compile ${a.manifest} --soc qcs6490 --precision int8, or remove the entry from files.htpContexts`,
    );
    assert.equal(doctorExitCode(rows), 1);
    const text = formatDoctorTable(rows, 200);
    assert.match(
      text,
      /FAIL context fall-a qcs6490\/int8 +fall-a\/fall-a\.qcs6490\.ctx\.onnx missing/,
    );
    assert.match(
      text,
      /\n +fix: htp-perception model compile \S+fall-a\.manifest\.json --soc qcs6490/,
    );
  });

  it('a stale binary (model re-quantized since) fails with the recompile command, as the node refuses it', function () {
    const a = addModel('fall-a', true);
    // A new file, never an in-place write (model folders may hold hard links).
    fs.rmSync(a.int8);
    fs.writeFileSync(a.int8, 'int8 re-quantized');
    const r = row(contextRows(models, THIS_BOARD), 'context fall-a qcs6490/int8');
    assert.equal(r.status, 'fail');
    assert.match(
      r.detail,
      /^fall-a\/fall-a\.qcs6490\.ctx\.onnx is stale: files\.int8 changed since it was compiled \(SHA-256 differs/,
    );
    assert.equal(
      r.fix,
      `htp-perception model compile ${a.manifest} --soc qcs6490 --precision int8 --force (recompiles it from the current files.int8)`,
    );
    // The same rule as a node's at start.
    const m = loadModelManifest(a.manifest);
    const selected = selectHtpContext(m, { provider: 'htp', precision: 'int8', threads: 0 });
    assert.ok(selected);
    assert.throws(
      () => checkHtpContext(m, selected),
      /compiled from another version of files\.int8/,
    );
  });

  it('its model file gone: a warning pointing at the manifest row, not a second failure', function () {
    const a = addModel('fall-a', true);
    fs.rmSync(a.int8);
    const r = row(contextRows(models, THIS_BOARD), 'context fall-a qcs6490/int8');
    assert.equal(r.status, 'warn');
    assert.match(r.detail, /present, staleness unknown: files\.int8 is missing/);
    assert.match(r.fix ?? '', /manifest row/);
  });

  it('built for another SoC than this board: a warning naming the compile command for this SoC', function () {
    const a = addModel('fall-a', true);
    const board: BoardSoc = { chip: 'QCS8550', source: '/sys/devices/soc0/machine', soc: QCS8550 };
    const r = row(contextRows(models, { board, noBoard: 'unused' }), 'context fall-a qcs6490/int8');
    assert.equal(r.status, 'warn');
    assert.equal(
      r.detail,
      'fall-a/fall-a.qcs6490.ctx.onnx is for qcs6490, this board is QCS8550: it does not load on this board',
    );
    assert.match(
      r.fix ?? '',
      new RegExp(
        `^htp-perception model compile ${escape(a.manifest)} --soc qcs8550 --precision int8 \\(`,
      ),
    );
  });

  it('another SoC outside the table: the warning says no binary can be compiled for it', function () {
    addModel('fall-a', true);
    addModel('fall-b', false);
    const board: BoardSoc = { chip: 'SM8550', source: '/sys/devices/soc0/machine' };
    const rows = contextRows(models, { board, noBoard: 'unused' });
    assert.match(
      row(rows, 'context binaries').detail,
      /^none recorded for fall-b: .*\(none can be compiled for SM8550, see the SoC row\)$/,
    );
    const r = row(rows, 'context fall-a qcs6490/int8');
    assert.equal(r.status, 'warn');
    assert.match(r.detail, /is for qcs6490, this board is SM8550: it does not load on this board$/);
    assert.match(r.fix ?? '', /cannot compile for SM8550 \(see the SoC row\)/);
  });

  it("another SoC's binary beside this board's own is not applicable here, whatever its state", function () {
    const a = addModel('fall-a', true);
    fs.rmSync(a.context);
    const m = loadModelManifest(a.manifest);
    const own = { ...m.files.htpContexts![0]!, file: 'own.ctx.onnx', soc: QCS8550.name };
    const withOwn = { ...m, files: { ...m.files, htpContexts: [...m.files.htpContexts!, own] } };
    const board: BoardSoc = { chip: 'QCS8550', source: '/sys/devices/soc0/machine', soc: QCS8550 };
    const r = row(
      manifestContextRows(withOwn, models, { board, noBoard: 'unused' }),
      'context fall-a qcs6490/int8',
    );
    assert.equal(r.status, 'n/a');
    assert.match(
      r.detail,
      /unused here, this board loads the qcs8550 binary \(its file is missing too\)$/,
    );
  });

  it('SoC unknown (no HTP device here): says which SoC each binary is for; missing still fails', function () {
    addModel('fall-a', true);
    const b = addModel('fall-b', true);
    fs.rmSync(b.context);
    const target = { noBoard: 'no HTP device on this host' };
    const rows = contextRows(models, target);
    assert.equal(
      row(rows, 'context fall-a qcs6490/int8').detail,
      'fall-a/fall-a.qcs6490.ctx.onnx, compiled from the current files.int8, for qcs6490 (no HTP device on this host)',
    );
    assert.equal(row(rows, 'context fall-a qcs6490/int8').status, 'ok');
    assert.equal(row(rows, 'context fall-b qcs6490/int8').status, 'fail');
  });

  it('manifests that do not load are left to the manifest rows', function () {
    addModel('fall-a', true);
    fs.mkdirSync(path.join(models, 'broken'));
    fs.writeFileSync(path.join(models, 'broken', 'broken.manifest.json'), '{ not json');
    assert.deepEqual(
      contextRows(models, THIS_BOARD).map((r) => r.check),
      ['context fall-a qcs6490/int8'],
    );
  });
});
