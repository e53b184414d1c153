/**
 * The promise of -ffp-contract=off (native/CMakeLists.txt), checked on the other architecture:
 * the aarch64 addon's preprocessing gives the same bytes as the x86-64 addon's, for every case
 * of preprocessOutputs.ts. The x86-64 side is run by scripts/arm64.sh on the host's own Node with
 * the host build (build/engine), before the emulated run: not from this test through proot, whose
 * Debian build (5.1.0) traces an x86-64 Node unreliably once its worker threads have run (mkdir
 * failing with EFAULT, stat missing files that exist).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { arm64Lane } from '../support/arm64Lane';
import { type PreprocessOutputs, preprocessOutputs } from './preprocessOutputs';

describe('arm64: preprocessing bit-identical to x86-64', function () {
  this.timeout(300000);

  it('every case gives the same output bytes and transform on both architectures', async () => {
    const lane = arm64Lane();
    const x64 = JSON.parse(fs.readFileSync(lane.x64Preprocess, 'utf8')) as PreprocessOutputs;
    const arm = await preprocessOutputs();
    assert.equal(x64.arch, 'x64');
    assert.equal(arm.arch, 'arm64');
    assert.notEqual(arm.addon, x64.addon);
    const titles = Object.keys(x64.digests);
    assert.deepEqual(Object.keys(arm.digests), titles);
    assert.ok(titles.length >= 50, `${titles.length} cases`);
    const differ = titles.filter((t) => arm.digests[t] !== x64.digests[t]);
    assert.deepEqual(differ, [], `bytes differ between arm64 and x86-64 for: ${differ.join('; ')}`);
  });
});
