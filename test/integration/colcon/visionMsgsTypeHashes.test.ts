import * as assert from 'node:assert/strict';
import { repoPath } from '../../support/paths';
import {
  installedHash,
  probeTypeHashes,
  readHashFixture,
  rosHasTypeDescriptions,
} from '../../support/typeHashes';

/** Upstream vision_msgs 4.1.1 hashes; how they were obtained is recorded in the fixture itself. */
const fixture = readHashFixture('vision_msgs_type_hashes.json');
// Our interface overlay for the ROS the run uses (scripts/env.sh): .ros/interfaces or .ros/overlay/<distro>.
const ifacePrefix = process.env.HTP_IFACE_PREFIX ?? repoPath('.ros', 'interfaces');

describe('dev-only vision_msgs (bootstrap step 30, our interface overlay)', function () {
  before(function () {
    if (!rosHasTypeDescriptions()) this.skip(); // Humble: no type hashes to compare (docs/robot.md)
  });

  it('installs every restated message with the type hash of upstream vision_msgs 4.1.1', function () {
    const names = Object.keys(fixture.hashes);
    assert.ok(names.length >= 9, 'fixture lists the messages the package must restate');
    for (const typeName of names) {
      assert.equal(installedHash(ifacePrefix, typeName), fixture.hashes[typeName], typeName);
    }
  });

  it('announces the upstream hashes over a real RMW and round-trips populated messages in rclpy', function () {
    this.timeout(60000);
    const types = Object.keys(fixture.hashes);
    const reply = probeTypeHashes(types);
    for (const typeName of types) {
      assert.equal(reply.hashes[typeName], fixture.hashes[typeName], typeName);
    }
    assert.deepEqual(reply.round_trips, { Detection2DArray: true, PersonPoseArray: true });
  });
});
