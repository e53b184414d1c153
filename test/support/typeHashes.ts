import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from './paths';

/** Upstream RIHS01 hashes of a restated interface package; the fixture says how they were obtained. */
export interface HashFixture {
  description: string;
  hashes: Record<string, string>;
}

export interface ProbeReply {
  hashes: Record<string, string | null>;
  round_trips: Record<string, boolean>;
}

export function readHashFixture(file: string): HashFixture {
  return JSON.parse(
    fs.readFileSync(repoPath('test', 'fixtures', 'colcon', file), 'utf8'),
  ) as HashFixture;
}

/**
 * Whether the ROS on AMENT_PREFIX_PATH has type descriptions and their hashes (REP-2011, Iron and
 * later: rosidl installs a .json beside each .msg). Humble has none; there the hash tests skip.
 */
export function rosHasTypeDescriptions(): boolean {
  return (process.env.AMENT_PREFIX_PATH ?? '')
    .split(':')
    .some(
      (p) => p && fs.existsSync(path.join(p, 'share', 'builtin_interfaces', 'msg', 'Time.json')),
    );
}

/** The hash rosidl wrote into the installed type description of one message under `prefix`. */
export function installedHash(prefix: string, typeName: string): string {
  const [pkg, kind, name] = typeName.split('/');
  const file = path.join(prefix, 'share', pkg ?? '', kind ?? '', `${name ?? ''}.json`);
  const description = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    type_hashes: { type_name: string; hash_string: string }[];
  };
  const own = description.type_hashes.find((h) => h.type_name === typeName);
  assert.ok(own, `${file} has no hash for ${typeName}`);
  return own.hash_string;
}

/**
 * type_hash_probe.py in rclpy over a real RMW: the hashes the types announce, and round trips of
 * populated messages (`roundTrips` names the probe's cases; undefined: its defaults).
 */
export function probeTypeHashes(
  types: readonly string[],
  roundTrips?: readonly string[],
): ProbeReply {
  const result = spawnSync(
    'bash',
    [
      '-c',
      `source "${repoPath('scripts', 'env.sh')}" && exec python3 "$0"`,
      repoPath('test', 'fixtures', 'colcon', 'type_hash_probe.py'),
    ],
    {
      input: JSON.stringify(roundTrips ? { types, round_trips: roundTrips } : { types }),
      encoding: 'utf8',
      timeout: 50000,
    },
  );
  assert.equal(result.status, 0, `type_hash_probe.py failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ProbeReply;
}
