import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { repoPath } from '../../support/paths';
import {
  installedHash,
  probeTypeHashes,
  readHashFixture,
  rosHasTypeDescriptions,
} from '../../support/typeHashes';

/** Upstream foxglove_msgs 3.4.3 hashes; how they were obtained is recorded in the fixture itself. */
const fixture = readHashFixture('foxglove_msgs_type_hashes.json');
// Our interface overlay for the ROS the run uses (scripts/env.sh): .ros/interfaces or .ros/overlay/<distro>.
const ifacePrefix = process.env.HTP_IFACE_PREFIX ?? repoPath('.ros', 'interfaces');
const restated = repoPath('interfaces', 'foxglove_msgs', 'msg');

describe('dev-only foxglove_msgs (bootstrap step 30, our interface overlay)', function () {
  before(function () {
    if (!rosHasTypeDescriptions()) this.skip(); // Humble: no type hashes to compare (docs/robot.md)
  });

  it('restates exactly the messages the fixture lists (ImageAnnotations and what it holds)', function () {
    const files = fs
      .readdirSync(restated)
      .filter((f) => f.endsWith('.msg'))
      .map((f) => `foxglove_msgs/msg/${f.slice(0, -4)}`)
      .sort();
    assert.deepEqual(files, Object.keys(fixture.hashes).sort());
    assert.ok(files.includes('foxglove_msgs/msg/ImageAnnotations'));
  });

  it('installs every restated message with the type hash of upstream foxglove_msgs 3.4.3', function () {
    for (const typeName of Object.keys(fixture.hashes)) {
      assert.equal(installedHash(ifacePrefix, typeName), fixture.hashes[typeName], typeName);
    }
  });

  it('announces the upstream hashes over a real RMW and round-trips populated annotations in rclpy', function () {
    this.timeout(60000);
    const types = Object.keys(fixture.hashes);
    const reply = probeTypeHashes(types, ['ImageAnnotations']);
    for (const typeName of types) {
      assert.equal(reply.hashes[typeName], fixture.hashes[typeName], typeName);
    }
    assert.deepEqual(reply.round_trips, { ImageAnnotations: true });
  });
});
