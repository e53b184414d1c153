/**
 * What the QNN HTP backend needs from a linux-arm64 board before a session can start there: the
 * CDSP running (the HTP sits behind it), its FastRPC device node, and the FastRPC user library
 * libcdsprpc.so that QNN's HTP stub loads. Without them ONNX Runtime only says that the QNN
 * provider "offers no device"; this module names the missing piece. Read from the file system
 * only, under a `root` (`/` on a board, a fixture tree in tests); `doctor` reads the same places.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../core/engineError';

export const FASTRPC_CDSP_DEVICE = '/dev/fastrpc-cdsp';
export const REMOTEPROC_DIR = '/sys/class/remoteproc';
/** Where the dynamic loader finds libcdsprpc.so when LD_LIBRARY_PATH does not name its folder. */
export const LIBCDSPRPC_DIRS: readonly string[] = [
  '/usr/lib',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/lib',
  '/lib/aarch64-linux-gnu',
  '/usr/local/lib',
  '/vendor/lib64',
];

export interface RemoteProc {
  /** e.g. /sys/class/remoteproc/remoteproc1 (not under the root). */
  readonly dir: string;
  readonly name: string;
  readonly firmware?: string;
  /** running, offline, crashed, ...; `unknown` when unreadable. */
  readonly state: string;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Every remote processor the kernel knows, and the CDSP among them (by name or firmware). */
export function remoteProcs(root: string): { all: RemoteProc[]; cdsp?: RemoteProc } {
  const all = listDir(path.join(root, REMOTEPROC_DIR)).map((d): RemoteProc => {
    const dir = path.join(REMOTEPROC_DIR, d);
    const firmware = readText(path.join(root, dir, 'firmware'));
    return {
      dir,
      name: readText(path.join(root, dir, 'name')) ?? '',
      ...(firmware !== undefined ? { firmware } : {}),
      state: readText(path.join(root, dir, 'state')) ?? 'unknown',
    };
  });
  const cdsp = all.find((p) => /cdsp/i.test(p.name) || /cdsp/i.test(p.firmware ?? ''));
  return cdsp !== undefined ? { all, cdsp } : { all };
}

/** The FastRPC device nodes present (fastrpc-cdsp, fastrpc-adsp, ...), names only. */
export function fastrpcNodes(root: string): string[] {
  return listDir(path.join(root, '/dev')).filter((n) => n.startsWith('fastrpc'));
}

/** libcdsprpc.so(.N) in LD_LIBRARY_PATH or the loader's usual folders, as a path (not under root). */
export function findLibcdsprpc(
  root: string,
  ldLibraryPath: string | undefined,
): string | undefined {
  const dirs = [
    ...(ldLibraryPath ?? '').split(':').filter((d) => d.length > 0),
    ...LIBCDSPRPC_DIRS,
  ];
  for (const d of dirs) {
    const hit = listDir(path.join(root, d)).find((n) => /^libcdsprpc\.so(\.\d+)*$/.test(n));
    if (hit !== undefined) return path.join(d, hit);
  }
  return undefined;
}

/**
 * The pieces an HTP session lacks on this board, each as a phrase naming it and where it was
 * looked for; empty when all are there (a failure then has another cause).
 */
export function missingHtpDevicePieces(
  root: string,
  env: { readonly LD_LIBRARY_PATH?: string | undefined },
): string[] {
  const missing: string[] = [];
  const { all, cdsp } = remoteProcs(root);
  if (cdsp === undefined) {
    missing.push(
      `the CDSP (no remote processor named cdsp in ${REMOTEPROC_DIR}${all.length === 0 ? ', which lists none' : ''})`,
    );
  } else if (cdsp.state !== 'running') {
    missing.push(`the CDSP running (${cdsp.dir} is ${cdsp.state})`);
  }
  if (!fs.existsSync(path.join(root, FASTRPC_CDSP_DEVICE))) {
    const nodes = fastrpcNodes(root);
    missing.push(
      `the FastRPC device ${FASTRPC_CDSP_DEVICE} (${nodes.length > 0 ? `only ${nodes.map((n) => `/dev/${n}`).join(', ')}` : 'no /dev/fastrpc-* at all'})`,
    );
  }
  if (findLibcdsprpc(root, env.LD_LIBRARY_PATH) === undefined) {
    missing.push(
      `the FastRPC user library libcdsprpc.so (not in LD_LIBRARY_PATH or ${LIBCDSPRPC_DIRS.join(', ')})`,
    );
  }
  return missing;
}

/** The machine an HTP load failure is explained against; tests pass a fixture root. */
export interface HtpHost {
  /** False on x86-64, where QNN's HTP library is a simulator and needs no DSP. */
  readonly device: boolean;
  readonly root: string;
  readonly env: { readonly LD_LIBRARY_PATH?: string | undefined };
}

export const THIS_HOST: HtpHost = {
  device: process.platform === 'linux' && process.arch === 'arm64',
  root: '/',
  env: process.env,
};

/**
 * An HTP session that failed to start on a board, re-worded to name the device pieces it lacks:
 * ONNX Runtime's own words (the QNN provider "offers no device", or the backend cannot
 * initialize) do not say which. A missing provider library keeps its own message (it names the
 * file), and so does a failure with every piece present: it has another cause.
 */
export function explainHtpLoadFailure(
  err: EngineError,
  providerLibrary: string,
  host: HtpHost = THIS_HOST,
): EngineError {
  if (!host.device) return err;
  if (err.code !== 'ERR_PROVIDER_UNAVAILABLE' && err.code !== 'ERR_MODEL_INVALID') return err;
  if (!fs.existsSync(providerLibrary)) return err;
  const missing = missingHtpDevicePieces(host.root, host.env);
  if (missing.length === 0) return err;
  return new EngineError(
    'ERR_PROVIDER_UNAVAILABLE',
    `provider htp cannot reach a Hexagon DSP on this machine: missing ${missing.join('; ')}. ` +
      `'htp-perception doctor' gives the fix for each. (ONNX Runtime: ${err.message})`,
  );
}
