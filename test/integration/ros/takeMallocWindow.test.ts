import { strict as assert } from 'node:assert';
import { runJsonProbe } from '../../support/rosProcess';

interface ProbeResult {
  windowOpen: boolean;
  thresholds: { mmapThreshold: number; trimThreshold: number } | null;
  faultsPerFrame: number;
}

function probe(window: 'on' | 'off', env: Record<string, string> = {}): Promise<ProbeResult> {
  return runJsonProbe<ProbeResult>('takeFaultsProbe.js', [window], env);
}

// Our rclnodejs patch's take window: with the addon's fixed 256 KB mmap threshold, rmw's own
// frame-sized scratch buffer was a fresh mapping per take (a 640x480 rgb8 frame is 225 pages).
describe('rclnodejs take window (scripts/setup/patches/rclnodejs-2.2.0-take-malloc-window.patch)', function () {
  this.timeout(60_000);

  it('takes camera frames without faulting in a fresh buffer each, and without it they do', async function () {
    const closed = await probe('off');
    const open = await probe('on');
    assert.deepEqual(open.thresholds, { mmapThreshold: 262_144, trimThreshold: 131_072 });
    assert.equal(open.windowOpen, true);
    assert.equal(closed.windowOpen, false);
    // The probe publishes its frames too (its own faults, the same either way); the window takes
    // away the take's: nearly one frame's pages (225 of 4 KB) per frame.
    const pages = (640 * 480 * 3) / 4096;
    assert.ok(
      closed.faultsPerFrame - open.faultsPerFrame >= 0.8 * pages,
      `faults per frame: ${closed.faultsPerFrame} closed, ${open.faultsPerFrame} open`,
    );
  });

  it('stays closed where the user chose glibc thresholds (MALLOC_MMAP_THRESHOLD_)', async function () {
    const r = await probe('on', { MALLOC_MMAP_THRESHOLD_: '8388608' });
    assert.equal(r.thresholds, null);
    assert.equal(r.windowOpen, false);
  });
});
