/**
 * `htp-perception doctor` on linux-arm64 without a Hexagon DSP, with the aarch64 onnxruntime-qnn
 * libraries as the QNN provider: it takes the board path (no "x86-64 simulator" row), reads the
 * aarch64 wheel's layout (provider, stub and skel side by side), and gives every failed device row
 * its fix; the offload probe reports the engine's refusal instead of dying.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DoctorRow } from '../../src/cli/doctor/doctorRow';
import { DEFAULT_QNN_LIBRARY } from '../../src/engine/engineOptions';
import { arm64Lane } from '../support/arm64Lane';

const MAIN = path.join(__dirname, '..', '..', 'src', 'cli', 'main.js');
const DEVICE_ROWS = [
  'SoC',
  'CDSP firmware',
  'FastRPC device',
  'libcdsprpc',
  'HTP v68 stub',
  'HTP v68 skel',
  'GPU device',
  'OpenCL library',
  'Adreno OpenCL driver',
  'QNN GPU backend',
  'offload proof',
];

describe('arm64: htp-perception doctor on a machine without a Hexagon DSP', function () {
  this.timeout(300000);
  let rows: DoctorRow[] = [];
  let status: number | null = null;

  before(() => {
    arm64Lane();
    // No manifests: the model rows are not what this checks, and reading the bootstrap models
    // under emulation only costs time.
    const models = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-arm64-doctor-'));
    try {
      const r = spawnSync(process.execPath, [MAIN, 'doctor', '--json', '--models', models], {
        encoding: 'utf8',
        env: { ...process.env, ADSP_LIBRARY_PATH: undefined },
      });
      status = r.status;
      assert.ok(r.stdout.trim().startsWith('{'), `doctor printed no JSON: ${r.stdout}${r.stderr}`);
      rows = (JSON.parse(r.stdout) as { rows: DoctorRow[] }).rows;
    } finally {
      fs.rmSync(models, { recursive: true, force: true });
    }
  });

  function row(check: string): DoctorRow {
    const r = rows.find((x) => x.check === check);
    assert.ok(r, `no row '${check}' in ${rows.map((x) => x.check).join(', ')}`);
    return r;
  }

  it('exits 1 and takes the board path: every device row, in fixing order, no simulator row', () => {
    assert.equal(status, 1);
    const device = rows.filter((r) => r.section === 'device').map((r) => r.check);
    assert.deepEqual(device, DEVICE_ROWS);
  });

  it('loads the arm64 addon and reads the aarch64 onnxruntime-qnn layout', () => {
    const qnnDir = path.dirname(DEFAULT_QNN_LIBRARY);
    assert.match(qnnDir, /\.cache\/arm64\/qnn\/onnxruntime_qnn$/);
    assert.equal(row('engine addon').status, 'ok');
    const qnn = row('QNN provider');
    assert.equal(qnn.status, 'ok');
    assert.match(qnn.detail, /^onnxruntime-qnn 2\.7\.0, QNN \d+\.\d+/);
    assert.ok(qnn.detail.endsWith(qnnDir), qnn.detail);
    const stub = row('HTP v68 stub');
    assert.equal(stub.status, 'ok');
    assert.equal(stub.detail, path.join(qnnDir, 'libQnnHtpV68Stub.so'));
    // The skel ships beside libQnnHtp.so, so the fix is the export line pointing there.
    const skel = row('HTP v68 skel');
    assert.equal(skel.status, 'fail');
    assert.ok(skel.fix?.startsWith(`export ADSP_LIBRARY_PATH="${qnnDir};`), skel.fix);
  });

  it('names each missing device piece with its fix', () => {
    const expected: Record<string, { detail: RegExp; fix: RegExp }> = {
      SoC: { detail: /no Qualcomm SoC named/, fix: /QCS6490-class board/ },
      'CDSP firmware': { detail: /remote processors|no CDSP/, fix: /remoteproc/ },
      'FastRPC device': { detail: /\/dev\/fastrpc-cdsp missing/, fix: /modprobe fastrpc/ },
      libcdsprpc: { detail: /libcdsprpc\.so not in LD_LIBRARY_PATH/, fix: /libcdsprpc\.so/ },
      'offload proof': {
        detail: /cannot reach a Hexagon DSP.*\/dev\/fastrpc-cdsp.*libcdsprpc\.so/,
        fix: /fix the rows above/,
      },
    };
    for (const [check, want] of Object.entries(expected)) {
      const r = row(check);
      assert.equal(r.status, 'fail', `${check}: ${r.detail}`);
      assert.match(r.detail, want.detail, check);
      assert.match(r.fix ?? '', want.fix, check);
    }
  });
});
