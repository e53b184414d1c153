import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  FRAME_NODE_FLAGS,
  FRAME_NODE_MODULES,
  missingFrameNodeFlags,
} from '../../../../src/nodes/process/frameNodeFlags';
import { repoPath } from '../../../support/paths';

describe('nodes/frameNodeFlags', () => {
  const cmake = fs.readFileSync(repoPath('CMakeLists.txt'), 'utf8');

  it('the launchers start frame-receiving executables with the flags the benchmarks use', () => {
    const flags = /^set\(HTP_FRAME_NODE_FLAGS "([^"]*)"\)$/m.exec(cmake);
    assert.ok(flags, 'HTP_FRAME_NODE_FLAGS in CMakeLists.txt');
    assert.equal(flags[1], FRAME_NODE_FLAGS.join(' '));
    assert.ok(FRAME_NODE_FLAGS.includes('--no-memory-reducer'));
    assert.ok(FRAME_NODE_FLAGS.includes('--heap-growing-percent=300'));
  });

  it('the demo starts its container with the same flags', () => {
    const demo = fs.readFileSync(repoPath('scripts/demo.sh'), 'utf8');
    assert.ok(
      demo.includes(`node ${FRAME_NODE_FLAGS.join(' ')} dist/src/nodes/perceptionContainer.js`),
    );
  });

  it('tells which flags a process was started without', () => {
    assert.deepEqual(missingFrameNodeFlags([], ''), [...FRAME_NODE_FLAGS]);
    assert.deepEqual(missingFrameNodeFlags([...FRAME_NODE_FLAGS], ''), []);
    assert.deepEqual(missingFrameNodeFlags(['--no-memory-reducer'], ''), [
      '--heap-growing-percent=300',
    ]);
    // NODE_OPTIONS counts; so does V8's underscore spelling.
    assert.deepEqual(
      missingFrameNodeFlags([], ' --no_memory_reducer  --heap-growing-percent=300'),
      [],
    );
    // A user's own choice either way is theirs: not reported as missing.
    assert.deepEqual(
      missingFrameNodeFlags(['--memory-reducer', '--heap-growing-percent=50'], ''),
      [],
    );
    // Arguments that are not flags do not count.
    assert.deepEqual(missingFrameNodeFlags(['no-memory-reducer'], 'heap-growing-percent=300'), [
      ...FRAME_NODE_FLAGS,
    ]);
  });

  it('names every node executable that receives camera frames', () => {
    const exes = /^set\(HTP_FRAME_NODE_EXECUTABLES ([^)]*)\)$/m.exec(cmake);
    assert.ok(exes, 'HTP_FRAME_NODE_EXECUTABLES in CMakeLists.txt');
    assert.deepEqual((exes[1] ?? '').split(' ').sort(), [
      'detector_node',
      'perception_container',
      'perception_node',
    ]);
    // ... and FRAME_NODE_MODULES names their modules (HTP_NODE_EXECUTABLES: "exe=nodes/module").
    const modules = (exes[1] ?? '').split(' ').map((exe) => {
      const entry = new RegExp(`"${exe}=nodes/(\\w+)"`).exec(cmake);
      assert.ok(entry, `${exe} in HTP_NODE_EXECUTABLES`);
      return entry[1];
    });
    assert.deepEqual(modules.sort(), [...FRAME_NODE_MODULES].sort());
  });
});
