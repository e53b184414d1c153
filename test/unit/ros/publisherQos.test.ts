import { strict as assert } from 'node:assert';
import { incompatibility } from '../../../src/ros/qosCompatibility';
import {
  applyQosOverrides,
  IMAGE_QOS,
  LATCHED_QOS,
  qosOverrideName,
  RESULT_QOS,
} from '../../../src/ros/publisherQos';

const TOPIC = '/detector/annotated/compressed';

describe('publisher QoS overrides', function () {
  it('names parameters as rclcpp does: qos_overrides.<topic>.publisher.<policy>', function () {
    assert.equal(
      qosOverrideName('/detector/detections', 'reliability'),
      'qos_overrides./detector/detections.publisher.reliability',
    );
    assert.equal(
      qosOverrideName(TOPIC, 'depth'),
      'qos_overrides./detector/annotated/compressed.publisher.depth',
    );
  });

  it('outputs default to reliable keep-last, which both default and sensor-data subscribers match', function () {
    for (const q of [RESULT_QOS, IMAGE_QOS, LATCHED_QOS]) {
      assert.equal(q.reliability, 'reliable');
      assert.equal(q.history, 'keep_last');
      assert.ok(q.depth >= 1 && q.depth <= 5, `shallow queue, got ${q.depth}`);
      const pub = { reliability: 1, durability: q.durability === 'transient_local' ? 1 : 2 };
      assert.equal(incompatibility(pub, { reliability: 1, durability: 2 }), undefined);
      assert.equal(incompatibility(pub, { reliability: 2, durability: 2 }), undefined);
    }
    assert.equal(LATCHED_QOS.durability, 'transient_local');
  });

  it('applies the overrides of its own topic only', function () {
    const q = applyQosOverrides(TOPIC, IMAGE_QOS, {
      [qosOverrideName(TOPIC, 'reliability')]: 'best_effort',
      [qosOverrideName(TOPIC, 'depth')]: 3n,
      [qosOverrideName('/detector/annotated', 'reliability')]: 'system_default',
    });
    assert.deepEqual(q, { ...IMAGE_QOS, reliability: 'best_effort', depth: 3 });
    assert.deepEqual(applyQosOverrides(TOPIC, IMAGE_QOS, {}), IMAGE_QOS);
  });

  it('refuses a bad value, naming the parameter and what it accepts', function () {
    assert.throws(
      () =>
        applyQosOverrides(TOPIC, IMAGE_QOS, {
          [qosOverrideName(TOPIC, 'reliability')]: 'besteffort',
        }),
      {
        name: 'ConfigError',
        message:
          'qos_overrides./detector/annotated/compressed.publisher.reliability: got "besteffort", expected one of reliable, best_effort, system_default',
      },
    );
    assert.throws(
      () => applyQosOverrides(TOPIC, IMAGE_QOS, { [qosOverrideName(TOPIC, 'depth')]: 0n }),
      { name: 'ConfigError', message: /publisher\.depth: got 0, expected an integer from 1/ },
    );
  });
});
