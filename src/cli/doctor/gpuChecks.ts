/**
 * The Adreno GPU rows of `doctor` (provider gpu: the QNN provider's GPU backend, which drives the
 * GPU through OpenCL): the KGSL device node and whether the node's user can open it, an OpenCL
 * library, Adreno's OpenCL driver (named by an ICD file, or the vendor library itself), and the QNN
 * GPU backend beside the provider. Read from the file system only (a fixture tree in tests), in
 * the order a person would fix them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listDir } from '../../engine/htpDevice';
import { canOpenReadWrite, type DoctorRow, fail, ok } from './doctorRow';

/** The Adreno GPU's device node (the Qualcomm KGSL driver). */
export const KGSL_DEVICE = '/dev/kgsl-3d0';

/** Where a board's user-space libraries live (Qualcomm Linux, Ubuntu, Android's vendor tree). */
const LIBRARY_DIRS: readonly string[] = [
  '/usr/lib',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/vendor/lib64',
];
const ICD_DIR = '/etc/OpenCL/vendors';
/** Adreno's OpenCL driver by the names Qualcomm ships it under. */
const ADRENO_OPENCL = /^(libOpenCL_adreno|libadreno_utils|libgsl)\.so(\.\d+)*$/;

export interface GpuCheckInput {
  /** File-system root the board paths are read under: `/` on a board, a fixture in tests. */
  readonly root: string;
  readonly env: { readonly LD_LIBRARY_PATH?: string };
  /** Folder of the QNN provider library (a real path): libQnnGpu.so belongs beside it. */
  readonly qnnLibraryDir: string;
  readonly identity: {
    readonly uid: number;
    readonly gids: readonly number[];
    readonly user: string;
  };
}

function libraryDirs(input: GpuCheckInput): string[] {
  return [
    ...(input.env.LD_LIBRARY_PATH ?? '').split(':').filter((d) => d.length > 0),
    ...LIBRARY_DIRS,
  ];
}

function findLibrary(input: GpuCheckInput, match: RegExp): string | undefined {
  for (const d of libraryDirs(input)) {
    const hit = listDir(path.join(input.root, d)).find((n) => match.test(n));
    if (hit !== undefined) return path.join(d, hit);
  }
  return undefined;
}

function deviceRows(input: GpuCheckInput): DoctorRow[] {
  let st: fs.Stats;
  try {
    st = fs.statSync(path.join(input.root, KGSL_DEVICE));
  } catch {
    return [
      fail(
        'device',
        'GPU device',
        `${KGSL_DEVICE} missing: no Adreno GPU driver (KGSL) on this board`,
        "a Qualcomm Linux image with the Adreno GPU driver (msm_kgsl), or the board vendor's kernel",
      ),
    ];
  }
  const { user } = input.identity;
  const can = canOpenReadWrite(st, input.identity);
  return [
    ok('device', 'GPU device', `${KGSL_DEVICE} present`),
    can
      ? ok('device', 'GPU access', `${KGSL_DEVICE}: ${user} can open it read-write`)
      : fail(
          'device',
          'GPU access',
          `${KGSL_DEVICE}: ${user} cannot open it read-write (group id ${st.gid})`,
          `add ${user} to the group owning ${KGSL_DEVICE} (often video or render), then log out and in again`,
        ),
  ];
}

function openclRows(input: GpuCheckInput): DoctorRow[] {
  const loader = findLibrary(input, /^libOpenCL\.so(\.\d+)*$/);
  const icds = listDir(path.join(input.root, ICD_DIR)).filter((n) => n.endsWith('.icd'));
  const named = icds
    .map((f) => {
      try {
        return fs.readFileSync(path.join(input.root, ICD_DIR, f), 'utf8').trim();
      } catch {
        return '';
      }
    })
    .filter((lib) => ADRENO_OPENCL.test(path.basename(lib)));
  const driver = findLibrary(input, ADRENO_OPENCL);
  return [
    loader !== undefined
      ? ok('device', 'OpenCL library', loader)
      : fail(
          'device',
          'OpenCL library',
          `libOpenCL.so not in LD_LIBRARY_PATH or ${LIBRARY_DIRS.join(', ')}`,
          "install the board's Adreno OpenCL user-space package (Qualcomm Linux: the adreno / opencl-adreno packages), or ocl-icd-libopencl1 with Adreno's ICD",
        ),
    driver !== undefined || named.length > 0
      ? ok(
          'device',
          'Adreno OpenCL driver',
          driver !== undefined
            ? `${driver}${named.length > 0 ? ` (named by ${ICD_DIR})` : ''}`
            : `${named.join(', ')} (named by ${ICD_DIR})`,
        )
      : fail(
          'device',
          'Adreno OpenCL driver',
          `no Adreno OpenCL driver (libOpenCL_adreno.so, libadreno_utils.so, libgsl.so) in the library folders, and no ${ICD_DIR}/*.icd names one`,
          "install the board vendor's Adreno user-space driver (it ships with the Qualcomm Linux image)",
        ),
  ];
}

function qnnGpuRow(input: GpuCheckInput): DoctorRow {
  const lib = path.join(input.qnnLibraryDir, 'libQnnGpu.so');
  return fs.existsSync(lib)
    ? ok('device', 'QNN GPU backend', lib)
    : fail(
        'device',
        'QNN GPU backend',
        `libQnnGpu.so not beside the QNN provider (${input.qnnLibraryDir})`,
        'install the onnxruntime-qnn wheel, which carries libQnnGpu.so beside libQnnHtp.so (bootstrap step 60)',
      );
}

/** The GPU rows on a board (or a fixture tree standing for one). */
export function gpuChecks(input: GpuCheckInput): DoctorRow[] {
  return [...deviceRows(input), ...openclRows(input), qnnGpuRow(input)];
}

/** The one GPU row of a host without an Adreno GPU. */
export function hostGpuRow(): DoctorRow {
  return {
    section: 'device',
    check: 'GPU device',
    status: 'n/a',
    detail: `no Adreno GPU: this is an ${process.arch === 'x64' ? 'x86-64' : process.arch} host; provider gpu is refused here with the QNN GPU backend's own reason`,
  };
}
