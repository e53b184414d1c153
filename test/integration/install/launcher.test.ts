import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

/** A Node stand-in: prints its arguments and the Fast DDS profile variables, one per line. */
const FAKE_NODE = `#!/bin/sh
for a in "$@"; do echo "arg=$a"; done
echo "FASTDDS=\${FASTDDS_DEFAULT_PROFILES_FILE-unset}"
echo "FASTRTPS=\${FASTRTPS_DEFAULT_PROFILES_FILE-unset}"
`;

interface Started {
  status: number | null;
  args: string[];
  fastdds: string;
  fastrtps: string;
  stderr: string;
}

/**
 * The installed launchers (cmake/launcher.sh.in, as CMakeLists.txt's configure_file writes them):
 * they set no DDS profile of their own, and HTP_PERCEPTION_LARGE_FRAMES=true picks the profile
 * variable the ROS' Fast DDS reads: FASTRTPS_DEFAULT_PROFILES_FILE for 2.x (Jazzy, Humble:
 * libfastrtps), FASTDDS_DEFAULT_PROFILES_FILE for 3.x (Kilted). Fast DDS 3 is what the install
 * test runs here; this covers the 2.x choice and the refusals without a Jazzy build.
 */
describe('the installed launchers (cmake/launcher.sh.in)', function () {
  let root = '';
  let launcher = '';
  let profile = '';
  let fakeNode = '';

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
    const template = fs.readFileSync(repoPath('cmake', 'launcher.sh.in'), 'utf8');
    const text = template
      .replace(/@HTP_EXE@/g, 'perception_node')
      .replace(/@HTP_MODULE@/g, 'nodes/perceptionNode')
      .replace(/@HTP_NODE_MINIMUM@/g, '20.20.2')
      .replace(/@HTP_FLAGS@/g, '--no-memory-reducer ');
    assert.doesNotMatch(text, /@HTP_\w+@/, 'every placeholder is filled');
    launcher = path.join(root, 'install', 'lib', 'htp_perception', 'perception_node');
    fs.mkdirSync(path.dirname(launcher), { recursive: true });
    fs.writeFileSync(launcher, text, { mode: 0o755 });
    const config = path.join(root, 'install', 'share', 'htp_perception', 'config');
    fs.mkdirSync(config, { recursive: true });
    profile = path.join(config, 'fastdds_large_frames.xml');
    fakeNode = path.join(root, 'node');
    fs.writeFileSync(fakeNode, FAKE_NODE, { mode: 0o755 });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  function start(env: Record<string, string>, args: string[] = []): Started {
    const r = spawnSync(launcher, args, {
      env: { PATH: '/usr/bin:/bin', HTP_NODE: fakeNode, ...env },
      encoding: 'utf8',
    });
    const lines = r.stdout.split('\n');
    const value = (k: string): string =>
      lines.find((l) => l.startsWith(`${k}=`))?.slice(k.length + 1) ?? '';
    return {
      status: r.status,
      args: lines.filter((l) => l.startsWith('arg=')).map((l) => l.slice(4)),
      fastdds: value('FASTDDS'),
      fastrtps: value('FASTRTPS'),
      stderr: r.stderr,
    };
  }

  /** A folder holding an (empty) library of that name, as a ROS prefix's lib/ would. */
  function libDir(name: string, lib: string): string {
    const dir = path.join(root, name, 'lib');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, lib), '');
    return dir;
  }

  it('starts the module of the install space it lies in, with its flags and the arguments, no profile', function () {
    const r = start({}, ['--ros-args', '-r', 'image:=/x/image_raw']);
    assert.equal(r.status, 0, r.stderr);
    const module = path.join(
      root,
      'install',
      'share',
      'htp_perception',
      'dist',
      'src',
      'nodes',
      'perceptionNode.js',
    );
    assert.deepEqual(r.args, [
      '--no-memory-reducer',
      module,
      '--ros-args',
      '-r',
      'image:=/x/image_raw',
    ]);
    assert.equal(r.fastdds, 'unset');
    assert.equal(r.fastrtps, 'unset');
    assert.equal(start({ HTP_PERCEPTION_LARGE_FRAMES: 'false' }).fastdds, 'unset');
  });

  it('large frames on Fast DDS 3 (no libfastrtps): FASTDDS_DEFAULT_PROFILES_FILE only', function () {
    const r = start({
      HTP_PERCEPTION_LARGE_FRAMES: 'true',
      LD_LIBRARY_PATH: libDir('kilted', 'libfastdds.so.3.2'),
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.fastdds, profile);
    assert.equal(r.fastrtps, 'unset');
  });

  it('large frames on Fast DDS 2.x (libfastrtps on LD_LIBRARY_PATH or in a prefix): FASTRTPS_DEFAULT_PROFILES_FILE only', function () {
    const jazzy = start({
      HTP_PERCEPTION_LARGE_FRAMES: '1',
      LD_LIBRARY_PATH: `/nowhere:${libDir('jazzy', 'libfastrtps.so')}`,
    });
    assert.equal(jazzy.status, 0, jazzy.stderr);
    assert.equal(jazzy.fastrtps, profile);
    assert.equal(jazzy.fastdds, 'unset');
    const humble = start({
      HTP_PERCEPTION_LARGE_FRAMES: 'true',
      AMENT_PREFIX_PATH: path.dirname(libDir('humble', 'libfastrtps.so.2')),
    });
    assert.equal(humble.fastrtps, profile);
    assert.equal(humble.fastdds, 'unset');
  });

  it('keeps a profile the user set, and says so', function () {
    const r = start({
      HTP_PERCEPTION_LARGE_FRAMES: 'true',
      FASTDDS_DEFAULT_PROFILES_FILE: '/etc/robot/dds.xml',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.fastdds, '/etc/robot/dds.xml');
    assert.equal(r.fastrtps, 'unset');
    assert.match(
      r.stderr,
      /HTP_PERCEPTION_LARGE_FRAMES ignored: the Fast DDS profile \/etc\/robot\/dds\.xml is set already/,
    );
  });

  it('refuses a value that is not true or false, and warns under another middleware', function () {
    const bad = start({ HTP_PERCEPTION_LARGE_FRAMES: 'maybe' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /HTP_PERCEPTION_LARGE_FRAMES must be true or false, not 'maybe'/);
    assert.deepEqual(bad.args, [], 'Node is not started');
    const cyclone = start({
      HTP_PERCEPTION_LARGE_FRAMES: 'true',
      RMW_IMPLEMENTATION: 'rmw_cyclonedds_cpp',
    });
    assert.equal(cyclone.status, 0);
    assert.match(
      cyclone.stderr,
      /applies to Fast DDS only; RMW_IMPLEMENTATION is rmw_cyclonedds_cpp/,
    );
  });

  it('names a missing Node and the version it needs', function () {
    const r = spawnSync(launcher, [], {
      env: { PATH: '/usr/bin:/bin', HTP_NODE: 'no-such-node' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 127);
    assert.match(
      r.stderr,
      /Node\.js \('no-such-node'\) is not on PATH; install Node\.js >= 20\.20\.2 or set HTP_NODE/,
    );
  });
});
