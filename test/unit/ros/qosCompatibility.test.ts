import { strict as assert } from 'node:assert';
import { incompatibility } from '../../../src/ros/qosCompatibility';

const RELIABLE = 1;
const BEST_EFFORT = 2;
const TRANSIENT_LOCAL = 1;
const VOLATILE = 2;

describe('QoS compatibility', function () {
  it('matches a reliable publisher with either subscription', function () {
    const pub = { reliability: RELIABLE, durability: VOLATILE };
    assert.equal(
      incompatibility(pub, { reliability: BEST_EFFORT, durability: VOLATILE }),
      undefined,
    );
    assert.equal(incompatibility(pub, { reliability: RELIABLE, durability: VOLATILE }), undefined);
  });

  it('flags a best-effort camera feeding a reliable subscription, naming the fix', function () {
    const why = incompatibility(
      { reliability: BEST_EFFORT, durability: VOLATILE },
      { reliability: RELIABLE, durability: VOLATILE },
    );
    assert.match(why ?? '', /best effort.*input_qos: sensor_data/);
  });

  it('flags a volatile publisher for a transient-local subscription', function () {
    const why = incompatibility(
      { reliability: RELIABLE, durability: VOLATILE },
      { reliability: RELIABLE, durability: TRANSIENT_LOCAL },
    );
    assert.match(why ?? '', /volatile/);
  });
});
