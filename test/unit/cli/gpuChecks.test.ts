import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gpuChecks, type GpuCheckInput } from '../../../src/cli/doctor/gpuChecks';
import type { DoctorRow } from '../../../src/cli/doctor/doctorRow';
import { repoPath } from '../../support/paths';

const FIXTURES = repoPath('test', 'fixtures', 'doctor');
const ROBOT = { uid: 1000, user: 'robot' };

function input(root: string, over: Partial<GpuCheckInput> = {}): GpuCheckInput {
  return {
    root,
    env: {},
    qnnLibraryDir: path.join(root, 'opt', 'qnn', 'lib'),
    identity: { ...ROBOT, gids: [] },
    ...over,
  };
}

const table = (rows: readonly DoctorRow[]) => rows.map((r) => [r.check, r.status]);

describe('doctor GPU rows (provider gpu) over a fixture root', function () {
  const made: string[] = [];
  const copy = (name: string): string => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `htp-gpu-${name}-`));
    fs.cpSync(path.join(FIXTURES, name), root, { recursive: true });
    made.push(root);
    return root;
  };
  after(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a healthy board: the KGSL device open to the user, OpenCL, Adreno’s driver, libQnnGpu', () => {
    const root = copy('healthy');
    fs.chmodSync(path.join(root, 'dev', 'kgsl-3d0'), 0o666);
    const rows = gpuChecks(input(root));
    assert.deepEqual(table(rows), [
      ['GPU device', 'ok'],
      ['GPU access', 'ok'],
      ['OpenCL library', 'ok'],
      ['Adreno OpenCL driver', 'ok'],
      ['QNN GPU backend', 'ok'],
    ]);
    assert.equal(rows[2]!.detail, '/usr/lib/aarch64-linux-gnu/libOpenCL.so.1');
    assert.match(rows[3]!.detail, /libOpenCL_adreno\.so\.1 \(named by \/etc\/OpenCL\/vendors\)/);
  });

  it('a board without an Adreno stack names each missing piece with its fix', () => {
    const rows = gpuChecks(input(copy('generic-arm64')));
    assert.deepEqual(table(rows), [
      ['GPU device', 'fail'],
      ['OpenCL library', 'fail'],
      ['Adreno OpenCL driver', 'fail'],
      ['QNN GPU backend', 'fail'],
    ]);
    for (const r of rows) assert.ok(r.fix && r.fix.length > 10, `${r.check} has a fix`);
    assert.match(rows[0]!.detail, /\/dev\/kgsl-3d0 missing/);
    assert.match(rows[3]!.detail, /libQnnGpu\.so not beside the QNN provider/);
  });

  it('the device closed to the user, OpenCL only through LD_LIBRARY_PATH, the driver only by ICD', () => {
    const root = copy('healthy');
    fs.chmodSync(path.join(root, 'dev', 'kgsl-3d0'), 0o600);
    fs.rmSync(path.join(root, 'usr', 'lib', 'aarch64-linux-gnu', 'libOpenCL.so.1'));
    fs.rmSync(path.join(root, 'usr', 'lib', 'aarch64-linux-gnu', 'libOpenCL_adreno.so.1'));
    fs.mkdirSync(path.join(root, 'opt', 'ocl'), { recursive: true });
    fs.writeFileSync(path.join(root, 'opt', 'ocl', 'libOpenCL.so'), '');
    const closed = gpuChecks(input(root));
    assert.deepEqual(table(closed).slice(0, 3), [
      ['GPU device', 'ok'],
      ['GPU access', 'fail'],
      ['OpenCL library', 'fail'],
    ]);
    assert.match(closed[1]!.fix ?? '', /add robot to the group owning \/dev\/kgsl-3d0/);
    const withPath = gpuChecks(input(root, { env: { LD_LIBRARY_PATH: '/opt/ocl' } }));
    assert.equal(withPath[2]!.status, 'ok');
    assert.equal(withPath[2]!.detail, '/opt/ocl/libOpenCL.so');
    // The ICD file still names Adreno's driver, though the library itself is elsewhere.
    assert.equal(withPath[3]!.status, 'ok');
    assert.match(withPath[3]!.detail, /^libOpenCL_adreno\.so\.1 \(named by/);
  });
});
