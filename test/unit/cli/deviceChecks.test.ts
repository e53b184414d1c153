import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  boardSoc,
  type DeviceCheckInput,
  deviceChecks,
} from '../../../src/cli/doctor/deviceChecks';
import {
  type DoctorRow,
  doctorExitCode,
  formatDoctorTable,
} from '../../../src/cli/doctor/doctorRow';
import { repoPath } from '../../support/paths';

const FIXTURES = repoPath('test', 'fixtures', 'doctor');
const ROBOT = { uid: 1000, user: 'robot' };

/** A writable copy of a fixture tree, with the FastRPC node made crw-rw---- for group `render`. */
function copyOf(name: string): { root: string; gid: number } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `htp-doctor-${name}-`));
  fs.cpSync(path.join(FIXTURES, name), root, { recursive: true });
  const dev = path.join(root, 'dev', 'fastrpc-cdsp');
  let gid = 0;
  if (fs.existsSync(dev)) {
    fs.chmodSync(dev, 0o660);
    gid = fs.statSync(dev).gid;
  }
  // Whatever group the copy got (root's when tests run as root) is called 'render' here.
  fs.mkdirSync(path.join(root, 'etc'), { recursive: true });
  fs.writeFileSync(path.join(root, 'etc', 'group'), `render:x:${gid}:robot\n`);
  return { root, gid };
}

function input(
  root: string,
  over: Partial<DeviceCheckInput> = {},
  gids: number[] = [],
): DeviceCheckInput {
  return {
    root,
    env: {},
    qnnLibraryDir: path.join(root, 'opt', 'qnn', 'lib'),
    identity: { ...ROBOT, gids },
    ...over,
  };
}

function row(rows: readonly DoctorRow[], check: string): DoctorRow {
  const r = rows.find((x) => x.check === check);
  assert.ok(r, `no row '${check}' in ${rows.map((x) => x.check).join(', ')}`);
  return r;
}

describe('doctor device checks over a fixture root', function () {
  const made: string[] = [];
  const tree = (name: string): { root: string; gid: number } => {
    const t = copyOf(name);
    made.push(t.root);
    return t;
  };
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('a healthy board passes every row, in fixing order', function () {
    const { root, gid } = tree('healthy');
    const rows = deviceChecks(input(root, {}, [gid]));
    assert.deepEqual(
      rows.map((r) => [r.check, r.status]),
      [
        ['SoC', 'ok'],
        ['CDSP firmware', 'ok'],
        ['FastRPC device', 'ok'],
        ['FastRPC access', 'ok'],
        ['libcdsprpc', 'ok'],
        ['HTP v68 stub', 'ok'],
        ['HTP v68 skel', 'ok'],
      ],
    );
    assert.equal(
      row(rows, 'SoC').detail,
      'QCS6490 (/sys/devices/soc0/machine): compile target qcs6490, htp_arch 68 / soc_model 35',
    );
    assert.match(
      row(rows, 'CDSP firmware').detail,
      /remoteproc1 \(cdsp\) running, qcom\/qcs6490\/cdsp\.mbn/,
    );
    assert.equal(row(rows, 'libcdsprpc').detail, '/usr/lib/aarch64-linux-gnu/libcdsprpc.so.1');
    assert.match(
      row(rows, 'HTP v68 skel').detail,
      /\/usr\/lib\/rfsa\/adsp\/libQnnHtpV68Skel\.so, found through the default DSP folders/,
    );
    assert.equal(doctorExitCode(rows), 0);
  });

  it('CDSP offline with its firmware missing: both named, fix starts it after installing firmware', function () {
    const { root } = tree('cdsp-offline');
    const rows = deviceChecks(input(root));
    const cdsp = row(rows, 'CDSP firmware');
    assert.equal(cdsp.status, 'fail');
    assert.match(
      cdsp.detail,
      /remoteproc1 \(cdsp\) is offline; its firmware \/lib\/firmware\/qcom\/qcs6490\/cdsp\.mbn is missing/,
    );
    assert.match(
      cdsp.fix ?? '',
      /echo start \| sudo tee \/sys\/class\/remoteproc\/remoteproc1\/state/,
    );
    const dev = row(rows, 'FastRPC device');
    assert.equal(dev.status, 'fail');
    assert.match(dev.fix ?? '', /modprobe fastrpc/);
    assert.equal(doctorExitCode(rows), 1);
  });

  it('CDSP offline with firmware present: the fix is only to start it', function () {
    const { root } = tree('healthy');
    fs.writeFileSync(path.join(root, 'sys/class/remoteproc/remoteproc1/state'), 'crashed\n');
    const cdsp = row(deviceChecks(input(root)), 'CDSP firmware');
    assert.equal(cdsp.status, 'fail');
    assert.match(cdsp.detail, /is crashed$/);
    assert.match(cdsp.fix ?? '', /^echo start/);
  });

  it('a board without a Qualcomm DSP fails every row with what is missing', function () {
    const { root } = tree('generic-arm64');
    const rows = deviceChecks(input(root));
    assert.ok(
      rows.every((r) => r.status === 'fail' && (r.fix ?? '').length > 0),
      JSON.stringify(rows),
    );
    assert.match(
      row(rows, 'CDSP firmware').detail,
      /no remote processors in \/sys\/class\/remoteproc/,
    );
    assert.match(row(rows, 'libcdsprpc').detail, /libcdsprpc\.so not in LD_LIBRARY_PATH/);
    assert.match(row(rows, 'SoC').detail, /no Qualcomm SoC named/);
    assert.equal(boardSoc(root), undefined);
  });

  it('SoC from the device tree when socinfo is absent: QCM6490 is the qcs6490 target', function () {
    const { root } = tree('healthy');
    fs.rmSync(path.join(root, 'sys/devices/soc0'), { recursive: true });
    fs.mkdirSync(path.join(root, 'proc/device-tree'), { recursive: true });
    // The board string first (with its -<board> suffix), then the SoC, NUL-separated.
    fs.writeFileSync(
      path.join(root, 'proc/device-tree/compatible'),
      'qcom,qcs6490-rb3gen2\0qcom,qcm6490\0',
    );
    const b = boardSoc(root);
    assert.deepEqual(
      [b?.chip, b?.source, b?.soc?.name],
      ['QCM6490', '/proc/device-tree/compatible', 'qcs6490'],
    );
    assert.equal(row(deviceChecks(input(root)), 'SoC').status, 'ok');
  });

  it('a SoC outside the table warns, naming the table and what nodes do there', function () {
    const { root } = tree('healthy');
    fs.writeFileSync(path.join(root, 'sys/devices/soc0/machine'), 'SM8550\n');
    assert.deepEqual(boardSoc(root), { chip: 'SM8550', source: '/sys/devices/soc0/machine' });
    const soc = row(deviceChecks(input(root)), 'SoC');
    assert.equal(soc.status, 'warn');
    assert.match(
      soc.detail,
      /^SM8550 \(\/sys\/devices\/soc0\/machine\) is not in htp-perception's SoC table: qcs6490 /,
    );
    assert.match(soc.fix ?? '', /htp\.htp_arch \/ htp\.soc_model/);
  });

  it('remote processors without a CDSP are listed', function () {
    const { root } = tree('healthy');
    fs.rmSync(path.join(root, 'sys/class/remoteproc/remoteproc1'), { recursive: true });
    const cdsp = row(deviceChecks(input(root)), 'CDSP firmware');
    assert.equal(cdsp.status, 'fail');
    assert.match(cdsp.detail, /no CDSP among the remote processors \(adsp\)/);
  });

  it('FastRPC node not openable by the user: names the group and the usermod fix', function () {
    const { root } = tree('healthy');
    const rows = deviceChecks(input(root, {}, [4242]));
    const access = row(rows, 'FastRPC access');
    assert.equal(access.status, 'fail');
    assert.match(
      access.detail,
      /rw-rw---- group render: robot cannot open it read-write \(not in group render\)/,
    );
    assert.equal(access.fix, 'sudo usermod -aG render robot, then log out and in again');
    assert.equal(row(rows, 'FastRPC device').status, 'ok');
  });

  it('FastRPC node readable only: the fix adds a udev rule first', function () {
    const { root, gid } = tree('healthy');
    fs.chmodSync(path.join(root, 'dev', 'fastrpc-cdsp'), 0o640);
    const access = row(deviceChecks(input(root, {}, [gid])), 'FastRPC access');
    assert.equal(access.status, 'fail');
    assert.match(access.fix ?? '', /^a udev rule giving group render read-write/);
  });

  it('root may always open the node', function () {
    const { root } = tree('healthy');
    fs.chmodSync(path.join(root, 'dev', 'fastrpc-cdsp'), 0o600);
    const rows = deviceChecks({ ...input(root), identity: { uid: 0, gids: [], user: 'root' } });
    assert.equal(row(rows, 'FastRPC access').status, 'ok');
  });

  it('libcdsprpc found through LD_LIBRARY_PATH, or missing', function () {
    const { root, gid } = tree('healthy');
    fs.rmSync(path.join(root, 'usr/lib/aarch64-linux-gnu/libcdsprpc.so.1'));
    assert.equal(row(deviceChecks(input(root, {}, [gid])), 'libcdsprpc').status, 'fail');
    fs.mkdirSync(path.join(root, 'opt/vendor'), { recursive: true });
    fs.writeFileSync(path.join(root, 'opt/vendor/libcdsprpc.so'), '');
    const found = row(
      deviceChecks(input(root, { env: { LD_LIBRARY_PATH: '/nowhere:/opt/vendor' } }, [gid])),
      'libcdsprpc',
    );
    assert.equal(found.status, 'ok');
    assert.equal(found.detail, '/opt/vendor/libcdsprpc.so');
  });

  it('stub missing beside libQnnHtp.so: points at the aarch64 wheel', function () {
    const { root } = tree('healthy');
    fs.rmSync(path.join(root, 'opt/qnn/lib/libQnnHtpV68Stub.so'));
    const stub = row(deviceChecks(input(root)), 'HTP v68 stub');
    assert.equal(stub.status, 'fail');
    assert.match(stub.fix ?? '', /aarch64 onnxruntime-qnn wheel/);
  });

  it('skel beside the QNN library but not on ADSP_LIBRARY_PATH: the fix is the export line', function () {
    const { root } = tree('healthy');
    const qnn = path.join(root, 'opt/qnn/lib');
    fs.renameSync(
      path.join(root, 'usr/lib/rfsa/adsp/libQnnHtpV68Skel.so'),
      path.join(qnn, 'libQnnHtpV68Skel.so'),
    );
    const skel = row(
      deviceChecks(input(root, { env: { ADSP_LIBRARY_PATH: '/usr/lib/rfsa/adsp;/dsp' } })),
      'HTP v68 skel',
    );
    assert.equal(skel.status, 'fail');
    assert.match(skel.detail, /not in ADSP_LIBRARY_PATH \(\/usr\/lib\/rfsa\/adsp;\/dsp\)/);
    assert.equal(skel.fix, `export ADSP_LIBRARY_PATH="${qnn};/usr/lib/rfsa/adsp;/dsp"`);
  });

  it('skel found through ADSP_LIBRARY_PATH', function () {
    const { root } = tree('healthy');
    const skel = row(
      deviceChecks(input(root, { env: { ADSP_LIBRARY_PATH: '/dsp;/usr/lib/rfsa/adsp' } })),
      'HTP v68 skel',
    );
    assert.equal(skel.status, 'ok');
    assert.match(skel.detail, /found through ADSP_LIBRARY_PATH$/);
  });

  it('the table puts each fix under its failed row and counts failures', function () {
    const { root } = tree('cdsp-offline');
    const text = formatDoctorTable(deviceChecks(input(root)), 100);
    assert.match(
      text,
      /^HTP device\n {2}OK {3}SoC +QCM6490 [^\n]*\n[^\n]*soc_model 35\n {2}FAIL CDSP firmware/,
    );
    assert.match(text, /\n\s+fix: install the board's firmware package/);
    assert.match(text, /\d check\(s\) failed\.\n$/);
  });
});
