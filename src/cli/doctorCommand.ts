import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_QNN_LIBRARY } from '../engine/engineOptions';
import { PACKAGE_ROOT } from '../packageRoot';
import type { CommandResult } from './cliErrors';
import { type ContextTarget, contextRows } from './doctor/contextChecks';
import { boardSoc, deviceChecks } from './doctor/deviceChecks';
import { gpuChecks, hostGpuRow } from './doctor/gpuChecks';
import { qnnProgramRows } from './doctor/qnnProgramChecks';
import { videoRows } from './doctor/videoChecks';
import { type DoctorRow, doctorExitCode, formatDoctorTable } from './doctor/doctorRow';
import {
  addonRow,
  executorchRow,
  manifestRows,
  offloadRow,
  qnnRow,
  rclnodejsRow,
  rosRows,
} from './doctor/stackChecks';

export const DOCTOR_HELP = `usage: htp-perception doctor [--json] [--root DIR] [--models DIR] [--no-offload]

Checks that this machine can run htp_perception on the Hexagon HTP, one row per check, with the
fix under every failed row.
  Software stack: ROS 2 environment and middleware, rclnodejs, the engine addon and its ONNX
  Runtime, the QNN provider library, every model manifest against its model file, every
  compiled context binary a manifest records (present, compiled from the current model file,
  built for this board's SoC) and one row naming the models without any.
  HTP device (QCS6490 class): the SoC, CDSP firmware running, /dev/fastrpc-cdsp present and
  openable, libcdsprpc, the v68 stub and skel where QNN looks, then a tiny QDQ graph run through
  QNN with every node on the HTP (proof of offload). On an x86-64 host there is no HTP device:
  the graph runs on QNN's x86-64 simulator and is labelled so.

options:
  --json          print the rows as JSON ({ok, rows: [{section, check, status, detail, fix?}]})
  --root DIR      read the device paths (/sys, /dev, /usr/lib, ...) under DIR (fixture trees)
  --models DIR    manifests to check (default: the package's models/)
  --no-offload    skip the tiny-graph run (it loads the addon and the QNN provider)
  -h, --help      this text

exit code: 0 all checks passed, 1 a check failed, 2 bad usage`;

export interface DoctorOptions {
  readonly json: boolean;
  readonly root: string;
  readonly modelsDir: string;
  readonly offload: boolean;
}

export const DEFAULT_MODELS_DIR = path.join(PACKAGE_ROOT, 'models');

function identity(): { uid: number; gids: number[]; user: string } {
  const uid = process.getuid?.() ?? -1;
  const gids = process.getgroups?.() ?? [];
  let user = String(uid);
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry (containers): the uid names the user well enough.
  }
  return { uid, gids, user };
}

export function doctorRows(o: DoctorOptions): DoctorRow[] {
  // The board paths only mean something on an arm64 board, or under a fixture root.
  const simulated = process.arch !== 'arm64' && o.root === '/';
  const board = simulated ? undefined : boardSoc(o.root);
  const target: ContextTarget = {
    ...(board !== undefined ? { board } : {}),
    noBoard: simulated
      ? 'no HTP device on this host'
      : "this board's SoC is unknown, see the SoC row",
  };
  const rows: DoctorRow[] = [
    ...rosRows(process.env),
    rclnodejsRow(process.env),
    addonRow(),
    executorchRow(),
    qnnRow(DEFAULT_QNN_LIBRARY),
    ...manifestRows(o.modelsDir),
    ...contextRows(o.modelsDir, target),
    ...qnnProgramRows(o.modelsDir),
  ];
  if (simulated) {
    rows.push({
      section: 'device',
      check: 'HTP device',
      status: 'n/a',
      detail: `no HTP device: this is an ${process.arch === 'x64' ? 'x86-64' : process.arch} host; QNN's x86-64 HTP simulator is available (offload row below)`,
    });
  } else {
    const adsp = process.env.ADSP_LIBRARY_PATH;
    const ld = process.env.LD_LIBRARY_PATH;
    rows.push(
      ...deviceChecks({
        root: o.root,
        env: {
          ...(adsp !== undefined ? { ADSP_LIBRARY_PATH: adsp } : {}),
          ...(ld !== undefined ? { LD_LIBRARY_PATH: ld } : {}),
        },
        qnnLibraryDir: path.dirname(DEFAULT_QNN_LIBRARY),
        identity: identity(),
      }),
      ...gpuChecks({
        root: o.root,
        env: ld !== undefined ? { LD_LIBRARY_PATH: ld } : {},
        qnnLibraryDir: path.dirname(DEFAULT_QNN_LIBRARY),
        identity: identity(),
      }),
    );
  }
  if (simulated) rows.push(hostGpuRow());
  rows.push(...videoRows(o.root, !simulated));
  if (o.offload) rows.push(offloadRow(DEFAULT_QNN_LIBRARY, simulated));
  return rows;
}

export function doctorCommand(o: DoctorOptions): CommandResult {
  const rows = doctorRows(o);
  const code = doctorExitCode(rows);
  process.stdout.write(
    o.json
      ? `${JSON.stringify({ ok: code === 0, rows }, null, 2)}\n`
      : formatDoctorTable(rows, Math.max(80, Math.min(process.stdout.columns ?? 110, 140))),
  );
  return code;
}
