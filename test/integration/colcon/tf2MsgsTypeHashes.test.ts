import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { repoPath } from '../../support/paths';
import {
  installedHash,
  probeTypeHashes,
  readHashFixture,
  rosHasTypeDescriptions,
} from '../../support/typeHashes';

/** Upstream tf2_msgs' TFMessage hash; how it was obtained is recorded in the fixture itself. */
const fixture = readHashFixture('tf2_msgs_type_hashes.json');
// Our interface overlay for the ROS the run uses (scripts/env.sh): .ros/interfaces or .ros/overlay/<distro>.
const ifacePrefix = process.env.HTP_IFACE_PREFIX ?? repoPath('.ros', 'interfaces');
const restated = repoPath('interfaces', 'tf2_msgs', 'msg');

describe('dev-only tf2_msgs (bootstrap step 30, our interface overlay: /tf and /tf_static for target_frame)', function () {
  before(function () {
    if (!rosHasTypeDescriptions()) this.skip(); // Humble: no type hashes to compare (docs/robot.md)
  });

  it('restates exactly TFMessage', function () {
    const files = fs.readdirSync(restated).filter((f) => f.endsWith('.msg'));
    assert.deepEqual(
      files.map((f) => `tf2_msgs/msg/${f.slice(0, -4)}`),
      Object.keys(fixture.hashes),
    );
  });

  it("installs TFMessage with upstream tf2_msgs' type hash, and announces it over a real RMW", function () {
    this.timeout(60000);
    for (const typeName of Object.keys(fixture.hashes)) {
      assert.equal(installedHash(ifacePrefix, typeName), fixture.hashes[typeName], typeName);
    }
    const reply = probeTypeHashes(Object.keys(fixture.hashes), []);
    for (const typeName of Object.keys(fixture.hashes)) {
      assert.equal(reply.hashes[typeName], fixture.hashes[typeName], typeName);
    }
  });
});
