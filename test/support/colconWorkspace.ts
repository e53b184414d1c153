import { strict as assert } from 'node:assert';
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from './paths';
import { tempDirOutsideCheckout } from './tempDir';

/**
 * What a robot integrator puts in a workspace from a clone of this package: its sources (not
 * .cache, .ros, .git, nor the tests and tools) ...
 */
export const PACKAGE_SOURCES = [
  'package.xml',
  'CMakeLists.txt',
  'colcon.pkg',
  'cmake',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'msg',
  'src',
  'launch',
  'config',
  'models',
];
/** ... and the products of the package's own set-up steps, there after bootstrap: npm ci and the
 * rclnodejs build (node_modules), the engine addon and its ExecuTorch plug-in (steps 60, 62 and
 * 65; ExecuTorch's runtime libraries where step 62 unpacked them), the video addon (step 66), the
 * models' weights (in models/, above). */
export const SETUP_PRODUCTS = [
  'node_modules',
  path.join('build', 'engine', 'Release', 'htp_engine.node'),
  path.join('build', 'engine', 'Release', 'htp_executorch.so'),
  path.join('.cache', 'executorch', process.arch === 'arm64' ? 'aarch64' : 'x86_64', 'lib'),
  path.join('build', 'video', 'Release', 'htp_video.node'),
];

/** Interface packages a distro ships (ros-<distro>-vision-msgs, ...) that the wheels lack. */
const DISTRO_INTERFACES = ['vision_msgs', 'foxglove_msgs', 'tf2_msgs'];

export interface InstalledWorkspace {
  /** The workspace: src/ (the package folder renamed after the build), build/, install/. */
  readonly ws: string;
  readonly install: string;
  /** install/htp_perception/share/htp_perception */
  readonly share: string;
  /** install/htp_perception/lib/htp_perception */
  readonly lib: string;
  /** Where the package's sources were built from, renamed to this after the build. */
  readonly movedSource: string;
  /** Bash lines that give "only the ROS environment" (see rosEnvironment). */
  readonly rosSetup: string;
  /**
   * The environment programs start with: HOME, a PATH with Node and the system folders, TMPDIR (in
   * the workspace), an empty NODE_PATH, and nothing else (no HTP_*, no ROS_* discovery settings,
   * no DDS profile).
   */
  readonly cleanEnv: Record<string, string>;
  /** Runs `script` in bash from `cwd` with only the ROS environment and install/setup.bash. */
  run(script: string, cwd: string, timeoutMs: number): SpawnSyncReturns<string>;
}

/**
 * "Only the ROS environment", as a robot's shell has it after `source /opt/ros/<distro>/setup.bash`:
 *   - a sourced ROS (test:jazzy; a robot): that ROS' own setup.bash (the prefix holding rcl);
 *   - the Kilted wheels: scripts/ros-env.sh, the variables a setup.bash would set for .ros/venv.
 * Interface packages the distro would ship but the ROS lacks (the wheels have no vision_msgs,
 * foxglove_msgs) come from a prefix of their own, made here of exactly the files bootstrap
 * installed for them (their CMake install manifests): what `apt install ros-<distro>-vision-msgs`
 * gives a robot. Never our interface overlay, which also holds htp_perception's messages.
 */
function rosEnvironment(stage: string): { setup: string; lacking: string[] } {
  const sourced = process.env.HTP_ROS_MODE === 'sourced';
  const rosPrefix = process.env.HTP_ROS_PREFIX ?? '';
  const setupFile = sourced
    ? path.join(rosPrefix, 'setup.bash')
    : repoPath('scripts', 'ros-env.sh');
  assert.ok(fs.existsSync(setupFile), `no ROS setup file ${setupFile}`);
  const lines = [`source "${setupFile}"`];
  const prefixes = sourced ? [rosPrefix] : [repoPath('.ros', 'venv')];
  const has = (pkg: string): boolean =>
    prefixes.some((p) =>
      fs.existsSync(path.join(p, 'share', 'ament_index', 'resource_index', 'packages', pkg)),
    );
  const lacking = DISTRO_INTERFACES.filter((p) => !has(p));
  if (lacking.length > 0) {
    const extras = path.join(stage, 'distro-interfaces');
    const built = repoPath(
      '.ros',
      'build',
      `interfaces-${process.env.ROS_DISTRO ?? ''}-${process.env.HTP_ROS_MODE ?? ''}`,
    );
    const ifacePrefix = process.env.HTP_IFACE_PREFIX ?? '';
    for (const pkg of lacking) {
      const manifest = path.join(built, pkg, 'install_manifest.txt');
      assert.ok(fs.existsSync(manifest), `${manifest}: run scripts/bootstrap.sh 30-interfaces`);
      for (const file of fs.readFileSync(manifest, 'utf8').split('\n').filter(Boolean)) {
        const rel = path.relative(ifacePrefix, file);
        assert.ok(!rel.startsWith('..'), `${manifest} lists ${file} outside ${ifacePrefix}`);
        fs.mkdirSync(path.dirname(path.join(extras, rel)), { recursive: true });
        fs.copyFileSync(file, path.join(extras, rel));
      }
    }
    const site = fs.readdirSync(path.join(extras, 'lib')).find((d) => d.startsWith('python3'));
    lines.push(
      `export AMENT_PREFIX_PATH="${extras}:$AMENT_PREFIX_PATH"`,
      `export CMAKE_PREFIX_PATH="${extras}:$CMAKE_PREFIX_PATH"`,
      `export LD_LIBRARY_PATH="${extras}/lib:$LD_LIBRARY_PATH"`,
      ...(site ? [`export PYTHONPATH="${extras}/lib/${site}/site-packages:$PYTHONPATH"`] : []),
    );
  }
  return { setup: lines.join('\n'), lacking };
}

/** Copies `from` to `to` as hard links where it can (same file system: no space, no time). */
function linkCopy(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  let r = spawnSync('cp', ['-al', from, to], { encoding: 'utf8' });
  if (r.status !== 0) r = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  assert.equal(r.status, 0, `cp ${from} ${to}: ${r.stderr}`);
}

let built: InstalledWorkspace | undefined;

/**
 * A throwaway colcon workspace with this package's sources and set-up products, built by
 * `colcon build` in only the ROS environment, then the package's source folder renamed: the
 * install space must run on its own. Outside the checkout (tempDirOutsideCheckout: no parent
 * folder's node_modules can stand in for a package the install lacks). Built once per test
 * process (several suites share it, the build takes minutes) and removed when the process exits.
 */
export function installedWorkspace(): InstalledWorkspace {
  if (built) return built;
  const ws = tempDirOutsideCheckout('htp-colcon-');
  const pkgDir = path.join(ws, 'src', 'htp_perception');
  fs.mkdirSync(pkgDir, { recursive: true });
  for (const entry of PACKAGE_SOURCES) {
    if (fs.existsSync(repoPath(entry))) linkCopy(repoPath(entry), path.join(pkgDir, entry));
  }
  for (const product of SETUP_PRODUCTS) {
    assert.ok(fs.existsSync(repoPath(product)), `${product} is missing: run scripts/bootstrap.sh`);
    linkCopy(repoPath(product), path.join(pkgDir, product));
  }
  const { setup } = rosEnvironment(ws);
  const cleanEnv: Record<string, string> = {
    HOME: os.homedir(),
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    TMPDIR: path.join(ws, 'tmp'),
    LANG: 'C.UTF-8',
    NODE_PATH: '',
  };
  fs.mkdirSync(cleanEnv.TMPDIR!, { recursive: true });
  const bash = (script: string, cwd: string, timeoutMs: number): SpawnSyncReturns<string> =>
    spawnSync('bash', ['-c', `set -e\n${setup}\n${script}`], {
      cwd,
      env: cleanEnv,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
  // Debian's colcon runs on the system Python with empy 3; the ROS prefix's PYTHONPATH would hand
  // it the prefix's empy 4, so colcon itself runs without it (CMake still uses the Python of the
  // ROS: the first python3 on its PATH).
  const build = bash(
    `PYTHONPATH= colcon --log-base log build --base-paths src --build-base build --install-base install ` +
      `--event-handlers console_direct- --cmake-args -DBUILD_TESTING=OFF "-DPython3_EXECUTABLE=$(command -v python3)"`,
    ws,
    900_000,
  );
  assert.equal(
    build.status,
    0,
    `colcon build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`,
  );
  const movedSource = path.join(ws, 'src', 'htp_perception.moved');
  fs.renameSync(pkgDir, movedSource);
  const install = path.join(ws, 'install');
  built = {
    ws,
    install,
    share: path.join(install, 'htp_perception', 'share', 'htp_perception'),
    lib: path.join(install, 'htp_perception', 'lib', 'htp_perception'),
    movedSource,
    rosSetup: setup,
    cleanEnv,
    run: (script, cwd, timeoutMs) =>
      bash(`source "${path.join(install, 'setup.bash')}"\n${script}`, cwd, timeoutMs),
  };
  return built;
}
