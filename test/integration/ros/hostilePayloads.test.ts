import { strict as assert } from 'node:assert';
import { runJsonProbe } from '../../support/rosProcess';
import { STEPS, type HostileProbeResult, type Taker } from '../../support/hostilePayloadProbe';
import { fastDdsMajor, takenPayload } from '../../support/takenPayload';

const TAKERS: readonly Taker[] = [
  'same process direct',
  'same process serialized',
  'other process direct',
  'other process serialized',
];

/**
 * Payload classes a hostile publisher sends as they are, at raw subscriptions in its own process
 * and in another, with the one-copy take (our rclnodejs patch
 * scripts/setup/patches/rclnodejs-2.2.0-take-with-one-copy.patch) and the ordinary one: nothing
 * crashes the subscriber, what each subscription takes is what takenPayload() says, and valid
 * frames after each class still arrive. The
 * malformed flood found two of them: a 4-byte payload declaring padding crashed the one-copy take
 * (SIGSEGV), and an empty payload holds back everything its writer sends after it until the
 * writer's history lets go of it (that looked like the container's subscriptions stalling).
 */
describe('hostile payloads at raw subscriptions (over DDS, one-copy and ordinary take)', function () {
  this.timeout(120_000);
  let r: HostileProbeResult;
  before(async () => {
    r = await runJsonProbe<HostileProbeResult>('hostilePayloadProbe.js');
  });

  it('the subscriber process survives every class and the takes are the ones asked for', function () {
    assert.equal(r.subscriberEnd, 'exit 0');
    assert.deepEqual(r.takes, {
      'same process direct': 'direct',
      'same process serialized': 'serialized',
      'other process direct': 'direct',
      'other process serialized': 'serialized',
    });
  });

  it('each subscription takes what takenPayload() predicts', function () {
    // Fast DDS 2.14 (Jazzy) and 3 (Kilted) differ in one point: see takenPayload.
    const fastDds = fastDdsMajor();
    const differ: string[] = [];
    for (const step of STEPS) {
      for (const t of TAKERS) {
        const [where, , take] = t.split(' ') as ['same' | 'other', string, 'direct' | 'serialized'];
        const want = step.payloads
          .map((p) =>
            takenPayload(
              Buffer.from(p, 'hex'),
              take,
              where === 'same' ? 'same process' : 'other process',
              fastDds,
            ),
          )
          .filter((b): b is Uint8Array => b !== undefined)
          .map((b) => Buffer.from(b).toString('hex'));
        const got = r.taken[step.name]?.[t];
        if (JSON.stringify(got) !== JSON.stringify(want))
          differ.push(
            `${step.name}: ${t}: took ${JSON.stringify(got)}, predicted ${JSON.stringify(want)}`,
          );
      }
    }
    assert.deepEqual(differ, [], differ.join('\n'));
  });

  it('valid frames after each class still arrive, after an empty payload once its writer lets go of it', function () {
    for (const step of STEPS) assert.ok(r.markerArrived[step.name], step.name);
    // From a writer of its own, an empty payload holds back nothing else.
    assert.equal(r.markersNeeded['0 bytes, own writer'], 1);
  });
});
