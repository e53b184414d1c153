/**
 * The software-stack rows of `doctor`: ROS environment and middleware, rclnodejs, the addon and
 * ONNX Runtime, the QNN provider library, every manifest against its model, and the tiny QDQ
 * graph on the HTP. Each check catches its own failure and turns it into a row with its fix: a
 * doctor that crashes on the first missing piece tells the user nothing about the others.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkManifestAgainstModel } from '../../config/checkManifestAgainstModel';
import { findModelManifests } from '../../config/findModelManifests';
import { loadModelManifest } from '../../config/modelManifest';
import { nativeAddon } from '../../engine/nativeAddon';
import { introspectedFromOnnx } from '../../model/deriveManifest';
import { readModelFileInfo } from '../executorch/describeProgram';
import { loadRclnodejs } from '../../ros/rosEnvironment';
import { printMarked, runMarkedChild } from '../qnnChildProcess';
import { type DoctorRow, fail, ok } from './doctorRow';

const ROS_FIX =
  'source /opt/ros/<distro>/setup.bash and the workspace install/setup.bash (robot), or scripts/env.sh in a checkout';

function message(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}

export function rosRows(env: NodeJS.ProcessEnv): DoctorRow[] {
  const distro = env.ROS_DISTRO;
  const prefixes = (env.AMENT_PREFIX_PATH ?? '').split(':').filter((p) => p.length > 0);
  if (distro === undefined || prefixes.length === 0) {
    return [
      fail(
        'stack',
        'ROS 2 environment',
        `ROS_DISTRO ${distro ?? 'unset'}, AMENT_PREFIX_PATH ${prefixes.length > 0 ? 'set' : 'unset'}`,
        ROS_FIX,
      ),
      fail('stack', 'ROS middleware', 'not checked without a ROS environment', ROS_FIX),
    ];
  }
  const rows = [
    ok(
      'stack',
      'ROS 2 environment',
      `${distro}, ${prefixes.length} prefix(es) in AMENT_PREFIX_PATH`,
    ),
  ];
  // Kilted, Jazzy and Humble all default to Fast DDS when RMW_IMPLEMENTATION is unset.
  const rmw = env.RMW_IMPLEMENTATION ?? 'rmw_fastrtps_cpp';
  const lib = prefixes
    .map((p) => path.join(p, 'lib', `lib${rmw}.so`))
    .find((p) => fs.existsSync(p));
  rows.push(
    lib !== undefined
      ? ok('stack', 'ROS middleware', `${rmw} (${lib})`)
      : fail(
          'stack',
          'ROS middleware',
          `lib${rmw}.so is in no AMENT_PREFIX_PATH prefix`,
          `install ros-${distro}-${rmw.replace(/_/g, '-')} or set RMW_IMPLEMENTATION to an installed middleware`,
        ),
  );
  return rows;
}

export function rclnodejsRow(env: NodeJS.ProcessEnv): DoctorRow {
  if (env.ROS_DISTRO === undefined || env.AMENT_PREFIX_PATH === undefined) {
    return fail('stack', 'rclnodejs', 'not loaded without a ROS environment', ROS_FIX);
  }
  try {
    loadRclnodejs();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require('rclnodejs/package.json') as { version: string };
    return ok('stack', 'rclnodejs', `${version}, native binding loads`);
  } catch (e) {
    return fail(
      'stack',
      'rclnodejs',
      message(e),
      'fix the ROS environment first, then rebuild rclnodejs (scripts/bootstrap.sh 50-rclnodejs in a checkout)',
    );
  }
}

export function addonRow(): DoctorRow {
  try {
    const addon = nativeAddon();
    return ok(
      'stack',
      'engine addon',
      `loads; ONNX Runtime ${addon.ortVersion} (C API ${addon.ortApiVersion})`,
    );
  } catch (e) {
    return fail(
      'stack',
      'engine addon',
      message(e),
      'bash scripts/bootstrap.sh 60-onnxruntime 65-addon',
    );
  }
}

/**
 * The ExecuTorch plug-in (optional: without it ONNX models run and a program is refused naming
 * what is missing, so a warning, not a failure).
 */
export function executorchRow(): DoctorRow {
  let runtime;
  try {
    runtime = nativeAddon().executorchRuntime();
  } catch (e) {
    return { section: 'stack', check: 'ExecuTorch runtime', status: 'n/a', detail: message(e) };
  }
  return 'version' in runtime
    ? ok(
        'stack',
        'ExecuTorch runtime',
        `plug-in loads; ExecuTorch ${runtime.version} (XNNPACK and CPU kernels; programs delegated to QnnBackend also need libqnn_executorch_backend.so)`,
      )
    : {
        section: 'stack',
        check: 'ExecuTorch runtime',
        status: 'warn',
        detail: `no ExecuTorch programs (.pte): ${runtime.error}`,
        fix: 'bash scripts/bootstrap.sh 62-executorch 65-addon',
      };
}

/** The onnxruntime-qnn wheel records its version and the QNN SDK's beside the libraries. */
function qnnVersions(dir: string): { pkg?: string; qnn?: string } {
  try {
    const text = fs.readFileSync(path.join(dir, 'build_and_package_info.py'), 'utf8');
    const pkg = /__version__\s*=\s*['"]([^'"]+)/.exec(text)?.[1];
    const qnn = /qnn_version\s*=\s*['"]([^'"]+)/.exec(text)?.[1];
    return { ...(pkg ? { pkg } : {}), ...(qnn ? { qnn } : {}) };
  } catch {
    return {};
  }
}

export function qnnRow(providerLibrary: string): DoctorRow {
  const dir = path.dirname(providerLibrary);
  const fix =
    'install onnxruntime-qnn (bash scripts/bootstrap.sh 60-onnxruntime in a checkout) or point htp.provider_library at its libonnxruntime_providers_qnn.so';
  if (!fs.existsSync(providerLibrary)) {
    return fail('stack', 'QNN provider', `${providerLibrary} missing`, fix);
  }
  if (!fs.existsSync(path.join(dir, 'libQnnHtp.so'))) {
    return fail('stack', 'QNN provider', `libQnnHtp.so missing beside ${providerLibrary}`, fix);
  }
  const v = qnnVersions(dir);
  return ok(
    'stack',
    'QNN provider',
    `onnxruntime-qnn ${v.pkg ?? '(version unknown)'}, QNN ${v.qnn ?? '(version unknown)'}, ${dir}`,
  );
}

/** Every manifest under `modelsDir` (examples skipped) against each model file it names. */
export function manifestRows(modelsDir: string): DoctorRow[] {
  let manifests: string[];
  try {
    manifests = findModelManifests(modelsDir, { skipExamples: true });
  } catch (e) {
    return [fail('stack', 'model manifests', message(e), `pass --models DIR with your manifests`)];
  }
  if (manifests.length === 0) {
    return [
      fail(
        'stack',
        'model manifests',
        `no *.manifest.json under ${modelsDir}`,
        'htp-perception model import FILE.onnx, or pass --models DIR',
      ),
    ];
  }
  return manifests.map((file) => {
    const rel = path.relative(modelsDir, file);
    let check = `manifest ${path.basename(file, '.manifest.json')}`;
    try {
      const m = loadModelManifest(file);
      check = `manifest ${m.name}`;
      const checked: string[] = [];
      for (const [key, model] of Object.entries(m.modelPaths)) {
        if (model === undefined) continue;
        if (!fs.existsSync(model)) {
          return fail(
            'stack',
            check,
            `files.${key}: ${model} missing`,
            `put the model there, or run bash scripts/bootstrap.sh 70-models for the bootstrap models`,
          );
        }
        checkManifestAgainstModel(m, introspectedFromOnnx(readModelFileInfo(model)), file);
        checked.push(key);
      }
      return ok('stack', check, `${rel}: ${m.task}/${m.family}, ${checked.join(' + ')} match`);
    } catch (e) {
      return fail(
        'stack',
        check,
        message(e),
        'edit the named manifest field to what the model says, or regenerate it: htp-perception model import MODEL.onnx --force',
      );
    }
  });
}

const PROBE_MARK = 'HTP_DOCTOR_OFFLOAD ';

/**
 * The offload row, measured in a child process (offloadProbe.ts): the QNN libraries print to the
 * process's stdout on load, which would corrupt `--json`, and a provider that crashes must
 * become a failed row rather than end the doctor.
 */
export function offloadRow(providerLibrary: string, simulated: boolean): DoctorRow {
  const check = offloadCheckName(simulated);
  const answer = runMarkedChild(
    path.join(__dirname, 'offloadProbe.js'),
    [providerLibrary, simulated ? 'simulated' : 'device'],
    PROBE_MARK,
    120_000,
  );
  if (answer.ok) return answer.value as DoctorRow;
  return fail(
    'device',
    check,
    `the probe running the graph through QNN died (${answer.death})`,
    'fix the rows above first (addon, QNN provider, device); then look at dmesg for a DSP crash',
  );
}

export function offloadCheckName(simulated: boolean): string {
  return simulated ? 'offload (simulator)' : 'offload proof';
}

/** What the probe prints: the row, after a marker, on one line of its stdout. */
export function printProbeRow(row: DoctorRow): void {
  printMarked(PROBE_MARK, row);
}
