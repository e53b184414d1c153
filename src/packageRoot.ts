import * as fs from 'node:fs';
import * as path from 'node:path';

const PACKAGE_NAME = 'htp_perception';

/**
 * The nearest folder above `start` that holds this package's package.json. Searched, not counted
 * in '..' steps, because the same module runs from dist/src/ and dist/test/ in a checkout and from
 * share/htp_perception/dist/ in a colcon install (which installs package.json beside dist/).
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (name === PACKAGE_NAME) return dir;
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no package.json named ${PACKAGE_NAME} above ${start}`);
    }
  }
}

/** Root of the checkout (or of the installed share/htp_perception): models/, config/, tools/. */
export const PACKAGE_ROOT = findPackageRoot(__dirname);

/** A path below the package root. */
export function packagePath(...parts: string[]): string {
  return path.join(PACKAGE_ROOT, ...parts);
}

/**
 * In a colcon install space, where PACKAGE_ROOT is `<prefix>/share/htp_perception`: the package's
 * architecture-dependent folder `<prefix>/lib/htp_perception` (CMakeLists.txt installs the engine
 * addon, ONNX Runtime and the QNN libraries into its engine/). Undefined in a checkout.
 */
export const INSTALL_LIB_DIR: string | undefined =
  path.basename(PACKAGE_ROOT) === PACKAGE_NAME &&
  path.basename(path.dirname(PACKAGE_ROOT)) === 'share'
    ? path.join(path.dirname(path.dirname(PACKAGE_ROOT)), 'lib', PACKAGE_NAME)
    : undefined;

/**
 * The folder of the native engine's files: the addon (htp_engine.node) and, beside it in an
 * install, libonnxruntime.so.1 and qnn/. A checkout's is bootstrap's build output.
 */
export const ENGINE_DIR: string =
  INSTALL_LIB_DIR !== undefined
    ? path.join(INSTALL_LIB_DIR, 'engine')
    : path.join(PACKAGE_ROOT, 'build', 'engine', 'Release');

/**
 * The folder of the video addon (htp_video.node, native/video/): bootstrap's build output in a
 * checkout, `lib/htp_perception/video` in an install. Optional: without it nodes publish no video.
 */
export const VIDEO_DIR: string =
  INSTALL_LIB_DIR !== undefined
    ? path.join(INSTALL_LIB_DIR, 'video')
    : path.join(PACKAGE_ROOT, 'build', 'video', 'Release');
