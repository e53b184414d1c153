/**
 * The one place that loads rclnodejs. Loading it without a sourced ROS 2 environment fails deep
 * inside its native binding, so we check first and fail with one line that says what to do.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';

export class RosEnvironmentError extends Error {
  override readonly name = 'RosEnvironmentError';
}

const HOW_TO_FIX =
  'source scripts/env.sh in the htp_perception checkout (after scripts/bootstrap.sh), ' +
  'or /opt/ros/<distro>/setup.bash plus the workspace install/setup.bash on a robot';

let loaded: typeof Rclnodejs | undefined;
/** rclnodejs' native binding, as preloadBinding loaded it (the same module rclnodejs uses). */
let binding: Readonly<Record<string, unknown>> | undefined;

/** The native binding of the rclnodejs loadRclnodejs() loaded: for our patches' additions. */
export function rclnodejsBinding(): Readonly<Record<string, unknown>> {
  loadRclnodejs();
  return binding!;
}

export function loadRclnodejs(): typeof Rclnodejs {
  if (loaded) return loaded;
  if (!process.env.AMENT_PREFIX_PATH || !process.env.ROS_DISTRO) {
    throw new RosEnvironmentError(
      `no ROS 2 environment (AMENT_PREFIX_PATH/ROS_DISTRO unset): ${HOW_TO_FIX}`,
    );
  }
  // rclnodejs answers a binding that fails to load by rebuilding itself with `node-gyp clean`
  // first, which deletes a working build whenever the cause was only a missing library path.
  // Loading the binding ourselves first turns that into a clear error and leaves the build alone.
  preloadBinding();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('rclnodejs') as typeof Rclnodejs;
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new RosEnvironmentError(`rclnodejs failed to load (${reason}): ${HOW_TO_FIX}`);
  }
  return loaded;
}

function preloadBinding(): void {
  let file: string;
  try {
    file = path.join(
      path.dirname(require.resolve('rclnodejs/package.json')),
      'build',
      'Release',
      'rclnodejs.node',
    );
  } catch {
    throw new RosEnvironmentError('rclnodejs is not installed: run scripts/bootstrap.sh');
  }
  if (!fs.existsSync(file)) {
    throw new RosEnvironmentError(
      `rclnodejs native binding ${file} is not built: run scripts/bootstrap.sh`,
    );
  }
  checkBuiltForThisRos(file, process.env.HTP_ROS_ID);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    binding = require(file) as Record<string, unknown>;
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new RosEnvironmentError(
      `rclnodejs native binding does not load (${reason}): ${HOW_TO_FIX}`,
    );
  }
}

/**
 * Runs a node's main function; environment and configuration errors become one line on stderr
 * and exit code 2 instead of a stack trace.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    // Problems the user fixes by changing the environment, a parameter, a file or a model: one
    // line naming it, no stack trace.
    const userFacing = [
      'RosEnvironmentError',
      'ConfigError',
      'ManifestMismatchError',
      'EngineError',
    ];
    const oneLine = e instanceof Error && userFacing.includes(e.name);
    process.stderr.write(
      oneLine
        ? `${(e as Error).name}: ${(e as Error).message}\n`
        : `${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    shutdownRos();
    process.exit(oneLine ? 2 : 1);
  });
}

/**
 * Tears the ROS context down before exiting: leaving it to process exit lets DDS threads race the
 * static destructors, which on a loaded machine occasionally ended the process by a signal.
 */
function shutdownRos(): void {
  if (!loaded) return;
  try {
    if (!loaded.isShutdown()) loaded.shutdown();
  } catch {
    // Never initialized, or already gone: nothing to tear down.
  }
}

/**
 * In a checkout, bootstrap stamps rclnodejs' build with the ROS it was built against
 * (scripts/env.sh's HTP_ROS_ID, inside the stamp's key). A binding built for another ROS (after
 * `npm run test:jazzy`, or with /opt/ros sourced instead of the wheels) may load and then fail
 * at random on the first message: refuse it here, naming both. An install without the stamp (a
 * colcon install space) or an environment without HTP_ROS_ID is not judged.
 */
export function checkBuiltForThisRos(binding: string, want: string | undefined): void {
  const stampFile = path.join(path.dirname(path.dirname(binding)), '.htp-stamp');
  if (!want || !fs.existsSync(stampFile)) return;
  const stamp = fs.readFileSync(stampFile, 'utf8');
  if (stamp.includes(` ${want} `)) return;
  const built = /\b(\w+ (?:sourced|wheels) \S+)/.exec(stamp)?.[1] ?? 'another ROS';
  throw new RosEnvironmentError(
    `rclnodejs was built for ${built}, this environment is ${want}: run scripts/bootstrap.sh in this environment (it restores or rebuilds the binding for this ROS)`,
  );
}
