import { strict as assert } from 'node:assert';
import { runJsonProbe } from '../../support/rosProcess';

interface ProbeResult {
  kinds: Record<string, { direct: string; ordinary: string }>;
  results: Array<{ name: string; bytes: number; direct: boolean; ordinary: boolean }>;
  strays: number;
}

function probe(env: Record<string, string> = {}): Promise<ProbeResult> {
  return runJsonProbe<ProbeResult>('directTakeProbe.js', [], env);
}

// Our third rclnodejs patch: under rmw_fastrtps_cpp a raw subscription with `directTake` has rmw
// copy each message once, from the DataReader's history into the Buffer we get. Whatever arrives
// must reach JavaScript byte for byte as the ordinary raw take delivers it, malformed included.
describe('rclnodejs one-copy take (scripts/setup/patches/rclnodejs-2.2.0-take-with-one-copy.patch)', function () {
  this.timeout(90_000);

  it('delivers exactly the published bytes, as the ordinary raw take does', async function () {
    const r = await probe();
    for (const [type, kinds] of Object.entries(r.kinds)) {
      assert.deepEqual(kinds, { direct: 'direct', ordinary: 'serialized' }, type);
    }
    assert.equal(r.results.length, 7);
    for (const step of r.results) {
      assert.ok(
        step.direct,
        `${step.name} (${step.bytes} bytes): not delivered intact by the one-copy take`,
      );
      assert.ok(step.ordinary, `${step.name}: not delivered intact by the ordinary take`);
    }
    assert.equal(r.strays, 0, 'a subscription delivered bytes that were never published');
  });

  it('takes the ordinary way with HTP_DIRECT_TAKE=0', async function () {
    const r = await probe({ HTP_DIRECT_TAKE: '0' });
    for (const kinds of Object.values(r.kinds)) {
      assert.deepEqual(kinds, { direct: 'serialized', ordinary: 'serialized' });
    }
    assert.ok(r.results.every((s) => s.direct && s.ordinary));
  });
});
