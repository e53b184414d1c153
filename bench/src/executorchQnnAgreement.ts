/**
 * npm run bench:executorch-qnn [-- --photos DIR --limit N --json out.json]
 *
 * Bootstrap step 78's QNN-delegated ExecuTorch program (yolov8s-fall, ExecuTorch's QnnQuantizer
 * W8A16, Hexagon v68) on the x86-64 HTP simulator, through the wheel's libexecutorch_backend_qnn.so
 * and the ABI shim of tools/executorch/qnn/, against its FP32 ONNX twin on the CPU: detections
 * matched at IoU >= 0.5 and the same class, as `model quantize --validate-only` reports the other
 * precisions (match rate, mean box IoU, score drift), and the simulator's seconds per photo (an
 * emulation's cost, not a device figure). Runs itself again with the shim on the library path.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  formatTable,
  Int8Agreement,
  listPhotos,
  loadRgbFrame,
  ModelPipeline,
  packagePath,
  printedHelp,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { runBench, writeBenchJson } from './benchOutput';
import {
  EXECUTORCH_QNN_MANIFEST,
  QNN_SHIM_DIR,
  wheelQnnBackend,
} from '../../test/support/executorchQnn';

const USAGE = `npm run bench:executorch-qnn [-- --photos DIR --limit N --json out.json]

Bootstrap step 78's QNN-delegated ExecuTorch program (yolov8s-fall, ExecuTorch's QnnQuantizer
W8A16, Hexagon v68) on the x86-64 HTP simulator, through the wheel's libexecutorch_backend_qnn.so
and the ABI shim of tools/executorch/qnn/, against its FP32 ONNX twin on the CPU: detections
matched at IoU >= 0.5 and the same class, as \`model quantize --validate-only\` reports the other
precisions (match rate, mean box IoU, score drift), and the simulator's seconds per photo (an
emulation's cost, not a device figure). Default photos: .cache/photos-holdout (none calibrated
the program). ~25 s a photo.`;

const TWIN = packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const CHILD = 'HTP_BENCH_QNN_SHIMMED';

const r3 = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000) / 1000);

async function measure(
  photosDir: string,
  limit: number,
  jsonPath: string | undefined,
): Promise<void> {
  const photos = listPhotos(photosDir).slice(0, limit);
  if (photos.length === 0) throw new Error(`no photos in ${photosDir}`);
  const program = await ModelPipeline.load(EXECUTORCH_QNN_MANIFEST, {
    provider: 'htp',
    precision: 'fp32',
    threads: 2,
  });
  const twin = await ModelPipeline.load(TWIN, { provider: 'cpu', precision: 'fp32', threads: 2 });
  const agreement = new Int8Agreement('detect');
  const seconds: number[] = [];
  try {
    for (const photo of photos) {
      const frame = await loadRgbFrame(photo);
      const t0 = performance.now();
      const got = await program.run(frame);
      seconds.push((performance.now() - t0) / 1000);
      agreement.add(await twin.run(frame), got);
      process.stderr.write('.');
    }
  } finally {
    program.dispose();
    twin.dispose();
  }
  process.stderr.write('\n');
  const d = agreement.report().detections!;
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const figures = {
    date: new Date().toISOString(),
    cpu,
    cores: os.cpus().length,
    program: EXECUTORCH_QNN_MANIFEST,
    placement: program.providerReport.nodesByProvider,
    photos: photos.length,
    photos_dir: photosDir,
    fp32_boxes: d.fp32,
    program_boxes: d.int8,
    matched: d.matched,
    match_rate: r3(d.matchRate),
    mean_iou: r3(d.meanIou),
    mean_score_drift: r3(d.meanScoreDrift),
    max_score_drift: r3(d.maxScoreDrift),
    simulator_s_per_photo: r3(seconds.reduce((a, b) => a + b, 0) / seconds.length),
  };
  console.log(
    `yolov8s-fall, QNN-delegated ExecuTorch program (W8A16) on the HTP simulator vs FP32 ONNX on the CPU; ${cpu}`,
  );
  console.log(
    formatTable([
      {
        photos: figures.photos,
        'FP32 boxes': figures.fp32_boxes,
        'program boxes': figures.program_boxes,
        'match rate': figures.match_rate ?? '-',
        'mean IoU': figures.mean_iou ?? '-',
        'score drift mean (max)': `${figures.mean_score_drift} (${figures.max_score_drift})`,
        'simulator s/photo': figures.simulator_s_per_photo ?? '-',
      },
    ]),
  );
  if (jsonPath) writeBenchJson(jsonPath, figures);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, USAGE)) return;
  const args = parseBenchArgs(argv);
  const flags = new BenchFlags(args.rest);
  const photosDir = flags.value('--photos') ?? packagePath('.cache', 'photos-holdout');
  const limit = flags.int('--limit', Number.MAX_SAFE_INTEGER, 1);
  flags.finish();
  if (!fs.existsSync(EXECUTORCH_QNN_MANIFEST))
    throw new Error(`${EXECUTORCH_QNN_MANIFEST} missing: run scripts/bootstrap.sh 78`);
  if (process.env[CHILD] === '1') return measure(photosDir, limit, args.jsonPath);
  // The library path is read when the process starts: again, with the shim first on it.
  const r = spawnSync(process.execPath, [__filename, ...argv], {
    stdio: 'inherit',
    env: {
      ...process.env,
      [CHILD]: '1',
      LD_LIBRARY_PATH: QNN_SHIM_DIR,
      HTP_EXECUTORCH_QNN_BACKEND: wheelQnnBackend(),
    },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

runBench(main);
