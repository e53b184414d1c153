import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

/** Upstream foxglove_msgs 3.4.3 hashes; how they were obtained is recorded in the fixture itself. */
interface HashFixture {
  description: string;
  hashes: Record<string, string>;
}

interface ProbeReply {
  hashes: Record<string, string | null>;
  round_trips: Record<string, boolean>;
}

const fixture = JSON.parse(
  fs.readFileSync(repoPath('test', 'fixtures', 'colcon', 'foxglove_msgs_type_hashes.json'), 'utf8'),
) as HashFixture;
const ifacePrefix = repoPath('.ros', 'interfaces');
const restated = repoPath('interfaces', 'foxglove_msgs', 'msg');

/** The hash rosidl wrote into the installed type description of one message. */
function installedHash(typeName: string): string {
  const [pkg, kind, name] = typeName.split('/');
  const file = path.join(ifacePrefix, 'share', pkg ?? '', kind ?? '', `${name ?? ''}.json`);
  const description = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    type_hashes: { type_name: string; hash_string: string }[];
  };
  const own = description.type_hashes.find((h) => h.type_name === typeName);
  assert.ok(own, `${file} has no hash for ${typeName}`);
  return own.hash_string;
}

describe('dev-only foxglove_msgs (bootstrap step 30, .ros/interfaces)', function () {
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
      assert.equal(installedHash(typeName), fixture.hashes[typeName], typeName);
    }
  });

  it('announces the upstream hashes over a real RMW and round-trips populated annotations in rclpy', function () {
    this.timeout(60000);
    const types = Object.keys(fixture.hashes);
    const result = spawnSync(
      'bash',
      [
        '-c',
        `source "${repoPath('scripts', 'env.sh')}" && exec python3 "$0"`,
        repoPath('test', 'fixtures', 'colcon', 'type_hash_probe.py'),
      ],
      {
        input: JSON.stringify({ types, round_trips: ['ImageAnnotations'] }),
        encoding: 'utf8',
        timeout: 50000,
      },
    );
    assert.equal(result.status, 0, `type_hash_probe.py failed: ${result.stderr}`);
    const reply = JSON.parse(result.stdout) as ProbeReply;
    for (const typeName of types) {
      assert.equal(reply.hashes[typeName], fixture.hashes[typeName], typeName);
    }
    assert.deepEqual(reply.round_trips, { ImageAnnotations: true });
  });
});
