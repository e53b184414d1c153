/**
 * HTP readiness of a QCS6490-class board, read from the file system only (sysfs, the device tree,
 * /dev, library folders), so the logic runs against a fixture tree (`root`) in tests as on the board (`/`).
 * Nothing here talks to the DSP; the proof of offload is the separate tiny-graph row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findHtpSoc, HTP_SOCS, type HtpSoc } from '../../config/htpSocs';
import {
  FASTRPC_CDSP_DEVICE,
  fastrpcNodes,
  findLibcdsprpc,
  LIBCDSPRPC_DIRS,
  listDir,
  REMOTEPROC_DIR,
  remoteProcs,
} from '../../engine/htpDevice';
import { canOpenReadWrite, type DoctorRow, fail, ok } from './doctorRow';

export interface DeviceCheckInput {
  /** File-system root the board paths are read under: `/` on a board, a fixture in tests. */
  readonly root: string;
  /** ADSP_LIBRARY_PATH and LD_LIBRARY_PATH as the QNN library will see them. */
  readonly env: { readonly ADSP_LIBRARY_PATH?: string; readonly LD_LIBRARY_PATH?: string };
  /** Folder of libQnnHtp.so (a real path, not under `root`): the stub is looked for there first. */
  readonly qnnLibraryDir: string;
  /** Who will open the FastRPC device: permission bits are judged for this identity. */
  readonly identity: {
    readonly uid: number;
    readonly gids: readonly number[];
    readonly user: string;
  };
}

const STUB = 'libQnnHtpV68Stub.so';
const SKEL = 'libQnnHtpV68Skel.so';
/** Where FastRPC looks for skel libraries when ADSP_LIBRARY_PATH is unset (Linux user space). */
const DEFAULT_DSP_DIRS = [
  '/usr/lib/rfsa/adsp',
  '/usr/lib/dsp/cdsp',
  '/dsp',
  '/vendor/lib/rfsa/adsp',
];
function under(root: string, p: string): string {
  return path.join(root, p);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The SoC a board reports, with its SoC-table entry when htp-perception compiles for it. */
export interface BoardSoc {
  /** As the board names it, upper case: QCS6490, QCM6490, SM8550. */
  readonly chip: string;
  /** Where that name was read (a path under the root). */
  readonly source: string;
  /** The SoC table's entry for the chip; undefined for a chip outside the table. */
  readonly soc?: HtpSoc;
}

/** Chip names that are a table SoC under another name (same die and HTP, see its description). */
const SOC_ALIASES: Readonly<Record<string, string>> = { qcm6490: 'qcs6490' };

const SOCINFO_MACHINE = '/sys/devices/soc0/machine';
const DT_COMPATIBLE = '/proc/device-tree/compatible';

/**
 * This board's SoC: the Qualcomm socinfo driver's name for it (`/sys/devices/soc0/machine`), or
 * else the device tree's `qcom,<soc>` compatible (board strings carry a `-<board>` suffix, the
 * SoC string none). Undefined when neither names one.
 */
export function boardSoc(root: string): BoardSoc | undefined {
  const lookup = (chip: string, source: string): BoardSoc => {
    const n = chip.toLowerCase();
    const soc = findHtpSoc(SOC_ALIASES[n] ?? n);
    return { chip: chip.toUpperCase(), source, ...(soc ? { soc } : {}) };
  };
  const machine = readText(under(root, SOCINFO_MACHINE));
  if (machine) return lookup(machine, SOCINFO_MACHINE);
  const dtSoc = (readText(under(root, DT_COMPATIBLE)) ?? '')
    .split('\0')
    .map((c) => /^qcom,([a-z]+\d+[a-z0-9]*)$/.exec(c.trim())?.[1])
    .find((c) => c !== undefined);
  return dtSoc !== undefined ? lookup(dtSoc, DT_COMPATIBLE) : undefined;
}

const TABLE = HTP_SOCS.map((s) => `${s.name} (${s.description})`).join('; ');

function socRow(input: DeviceCheckInput): DoctorRow {
  const check = 'SoC';
  const b = boardSoc(input.root);
  if (b === undefined) {
    return fail(
      'device',
      check,
      `no Qualcomm SoC named: ${SOCINFO_MACHINE} missing and ${DT_COMPATIBLE} has no qcom,<soc> entry`,
      `the HTP path needs a QCS6490-class board; on one, the kernel's Qualcomm socinfo driver (CONFIG_QCOM_SOCINFO) names the SoC in ${SOCINFO_MACHINE}`,
    );
  }
  if (b.soc !== undefined) {
    return ok(
      'device',
      check,
      `${b.chip} (${b.source}): compile target ${b.soc.name}, htp_arch ${b.soc.htpArch} / soc_model ${b.soc.socModel}`,
    );
  }
  return {
    section: 'device',
    check,
    status: 'warn',
    detail: `${b.chip} (${b.source}) is not in htp-perception's SoC table: ${TABLE}`,
    fix: `on this SoC set the nodes' htp.htp_arch / htp.soc_model to its QNN values (the defaults are qcs6490's); no context binary can be compiled for it, so nodes compile the model at start`,
  };
}

function cdspFirmware(input: DeviceCheckInput): DoctorRow {
  const check = 'CDSP firmware';
  const sysDir = REMOTEPROC_DIR;
  const { all: procs, cdsp } = remoteProcs(input.root);
  if (cdsp === undefined) {
    return fail(
      'device',
      check,
      procs.length === 0
        ? `no remote processors in ${sysDir}`
        : `no CDSP among the remote processors (${procs.map((p) => p.name || path.basename(p.dir)).join(', ')})`,
      'the HTP sits behind the CDSP: use a QCS6490-class board whose kernel has the qcom remoteproc (PAS) driver for it',
    );
  }
  if (cdsp.state === 'running') {
    return ok(
      'device',
      check,
      `${cdsp.dir} (${cdsp.name}) running${cdsp.firmware ? `, ${cdsp.firmware}` : ''}`,
    );
  }
  const missingFw =
    cdsp.firmware !== undefined &&
    !fs.existsSync(under(input.root, path.join('/lib/firmware', cdsp.firmware)));
  return fail(
    'device',
    check,
    `${cdsp.dir} (${cdsp.name}) is ${cdsp.state}` +
      (missingFw ? `; its firmware /lib/firmware/${cdsp.firmware ?? ''} is missing` : ''),
    missingFw
      ? `install the board's firmware package so /lib/firmware/${cdsp.firmware ?? ''} exists, then: echo start | sudo tee ${cdsp.dir}/state`
      : `echo start | sudo tee ${cdsp.dir}/state (and look at dmesg if it does not reach 'running')`,
  );
}

function groupName(root: string, gid: number): string {
  const line = (readText(under(root, '/etc/group')) ?? '')
    .split('\n')
    .find((l) => l.split(':')[2] === String(gid));
  return line?.split(':')[0] ?? String(gid);
}

function modeText(mode: number): string {
  const bits = 'rwxrwxrwx';
  return [...bits].map((c, i) => ((mode >> (8 - i)) & 1 ? c : '-')).join('');
}

function fastrpcRows(input: DeviceCheckInput): DoctorRow[] {
  const dev = FASTRPC_CDSP_DEVICE;
  const file = under(input.root, dev);
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    const present = fastrpcNodes(input.root);
    return [
      fail(
        'device',
        'FastRPC device',
        `${dev} missing${present.length > 0 ? ` (present: ${present.join(', ')})` : ''}`,
        'load the FastRPC driver (sudo modprobe fastrpc) once the CDSP is running',
      ),
    ];
  }
  const rows = [ok('device', 'FastRPC device', `${dev} present`)];
  const { user } = input.identity;
  const m = st.mode;
  // Read and write are both needed: FastRPC sessions are opened O_RDWR.
  const can = canOpenReadWrite(st, input.identity);
  const group = groupName(input.root, st.gid);
  const detail = `${dev} ${modeText(m)} group ${group}`;
  rows.push(
    can
      ? ok('device', 'FastRPC access', `${detail}: ${user} can open it read-write`)
      : fail(
          'device',
          'FastRPC access',
          `${detail}: ${user} cannot open it read-write (not in group ${group})`,
          (m & 0o060) === 0o060
            ? `sudo usermod -aG ${group} ${user}, then log out and in again`
            : `a udev rule giving group ${group} read-write on ${dev}, then sudo usermod -aG ${group} ${user}`,
        ),
  );
  return rows;
}

function findIn(root: string, dirs: readonly string[], match: (name: string) => boolean) {
  for (const d of dirs) {
    const hit = listDir(under(root, d)).find(match);
    if (hit !== undefined) return path.join(d, hit);
  }
  return undefined;
}

function splitPath(value: string | undefined, sep: RegExp): string[] {
  return (value ?? '').split(sep).filter((d) => d.length > 0);
}

function libcdsprpc(input: DeviceCheckInput): DoctorRow {
  const hit = findLibcdsprpc(input.root, input.env.LD_LIBRARY_PATH);
  return hit !== undefined
    ? ok('device', 'libcdsprpc', hit)
    : fail(
        'device',
        'libcdsprpc',
        `libcdsprpc.so not in LD_LIBRARY_PATH or ${LIBCDSPRPC_DIRS.join(', ')}`,
        "install the board's FastRPC user library (libcdsprpc.so) or add its folder to LD_LIBRARY_PATH",
      );
}

function stubAndSkel(input: DeviceCheckInput): DoctorRow[] {
  const rows: DoctorRow[] = [];
  const stubHere = fs.existsSync(path.join(input.qnnLibraryDir, STUB));
  const stubDirs = splitPath(input.env.LD_LIBRARY_PATH, /:/);
  const stub = stubHere
    ? path.join(input.qnnLibraryDir, STUB)
    : findIn(input.root, stubDirs, (n) => n === STUB);
  rows.push(
    stub !== undefined
      ? ok('device', 'HTP v68 stub', stub)
      : fail(
          'device',
          'HTP v68 stub',
          `${STUB} not beside libQnnHtp.so (${input.qnnLibraryDir}) nor in LD_LIBRARY_PATH`,
          `install the linux aarch64 onnxruntime-qnn wheel, which carries ${STUB} beside libQnnHtp.so`,
        ),
  );
  const set = input.env.ADSP_LIBRARY_PATH !== undefined;
  // FastRPC separates ADSP_LIBRARY_PATH entries with ';'.
  const dspDirs = set ? splitPath(input.env.ADSP_LIBRARY_PATH, /;/) : DEFAULT_DSP_DIRS;
  const skel = findIn(input.root, dspDirs, (n) => n === SKEL);
  const skelInQnn = fs.existsSync(path.join(input.qnnLibraryDir, SKEL));
  const where = set
    ? `ADSP_LIBRARY_PATH (${dspDirs.join(';')})`
    : `the default DSP folders (${dspDirs.join(';')}; ADSP_LIBRARY_PATH unset)`;
  rows.push(
    skel !== undefined
      ? ok(
          'device',
          'HTP v68 skel',
          `${skel}, found through ${set ? 'ADSP_LIBRARY_PATH' : 'the default DSP folders'}`,
        )
      : fail(
          'device',
          'HTP v68 skel',
          `${SKEL} not in ${where}`,
          skelInQnn
            ? `export ADSP_LIBRARY_PATH="${input.qnnLibraryDir};${dspDirs.join(';')}"`
            : `copy ${SKEL} from the aarch64 onnxruntime-qnn wheel into a folder on ADSP_LIBRARY_PATH`,
        ),
  );
  return rows;
}

/** The device rows, in the order a person would fix them. */
export function deviceChecks(input: DeviceCheckInput): DoctorRow[] {
  return [
    socRow(input),
    cdspFirmware(input),
    ...fastrpcRows(input),
    libcdsprpc(input),
    ...stubAndSkel(input),
  ];
}
