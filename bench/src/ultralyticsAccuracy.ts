/**
 * npm run bench:ultralytics [-- --models MODEL[=REF.onnx][@IOU],...] [--photos DIR[,DIR...]]
 *                              [--conf C] [--json FILE]
 *
 * Our pipeline against Ultralytics' own predict() on the same ONNX file (issue 34): both read the
 * same photos; Ultralytics letterboxes, runs and maps back with its own code (bench venv,
 * bench/tools/ultralytics_reference.py), ours runs through ModelPipeline on the CPU in FP32 and in
 * INT8. Per model and precision: detections on each side, the share matched one to one (same class,
 * IoU >= 0.5), their mean box IoU, score differences and, for segmentation, the mean mask IoU of
 * the matched instances at the photo's size. Ultralytics is the reference: the question is whether
 * we say what Ultralytics says about the same weights, not whether either is right.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_THRESHOLDS,
  Int8Agreement,
  ModelPipeline,
  NO_STAGE_TIMINGS,
  formatTable,
  listPhotos,
  loadRgbFrame,
  packagePath,
  printedHelp,
  resolveModelManifest,
  resolveModelReference,
  type Detection,
  type PipelineResult,
  type Precision,
  type SegmentedDetection,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { runBench, writeBenchJson } from './benchOutput';
import { parseSpecs } from './comparisonSpecs';
import { decodeRuns, type RunLengthMask } from './maskRuns';
import { ensureUltralytics } from './ultralyticsSide';

const HELP = `usage: npm run bench:ultralytics -- [--models MODEL[=REF.onnx][@IOU],...] [--photos DIR[,DIR...]] [--conf C] [--json FILE]

Our pipeline (FP32 and INT8, CPU) against Ultralytics' predict() on the same ONNX file, on photos:
detections matched one to one (same class, IoU >= 0.5), box IoU, score differences, mask IoU.
Installs the benchmark-only Ultralytics venv on first use (several GB).

  --models   model[=reference.onnx][@iou],...: ours (a name, manifest or Ultralytics .onnx), the
             file Ultralytics runs (default: ours) and our NMS's IoU (default 0.7); default: the
             end-to-end yolo11n / yolo11n-seg files, and the shipped models cut at their raw
             head against those files
  --photos   photo folders (default .cache/photos, .cache/photos-holdout, .cache/photos-people,
             .cache/photos-unseen)
  --conf     score threshold on both sides (default ${DEFAULT_THRESHOLDS.score}, Ultralytics' own)
  --json     also write the figures as JSON`;

const REFERENCE_SCRIPT = packagePath('bench', 'tools', 'ultralytics_reference.py');

interface RefDetection {
  readonly box: readonly [number, number, number, number];
  readonly score: number;
  readonly classId: number;
  readonly mask?: RunLengthMask;
}
interface RefPhoto {
  readonly file: string;
  readonly width: number;
  readonly height: number;
  readonly detections: readonly RefDetection[];
}

function referenceResult(task: 'detect' | 'segment', photo: RefPhoto): PipelineResult {
  const timings = NO_STAGE_TIMINGS;
  const detections: Detection[] = photo.detections.map((d) => ({
    box: { x1: d.box[0], y1: d.box[1], x2: d.box[2], y2: d.box[3] },
    score: d.score,
    classId: d.classId,
  }));
  if (task === 'detect') return { task, detections, timings };
  const instances: SegmentedDetection[] = photo.detections.map((d, i) => {
    const m = d.mask ?? { x: 0, y: 0, width: 0, height: 0, runs: [] };
    return {
      ...detections[i]!,
      mask: { x: m.x, y: m.y, width: m.width, height: m.height, data: decodeRuns(m) },
    };
  });
  return { task, instances, timings };
}

function runReference(
  python: string,
  model: string,
  task: string,
  conf: number,
  photos: string[],
): RefPhoto[] {
  const r = spawnSync(
    python,
    [REFERENCE_SCRIPT, '--model', model, '--task', task, '--conf', String(conf), ...photos],
    {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0)
    throw new Error(`${REFERENCE_SCRIPT} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return (JSON.parse(r.stdout) as { photos: RefPhoto[] }).photos;
}

type Row = {
  model: string;
  format: string;
  precision: Precision;
  photos: number;
  ultralytics: number;
  ours: number;
  matched: number;
  match_rate: number;
  box_iou_mean: number | null;
  score_diff_mean: number | null;
  score_diff_max: number | null;
  mask_iou_mean: number | null;
};

const round = (v: number | null | undefined, d = 3): number | null =>
  v === null || v === undefined ? null : Number(v.toFixed(d));

const DEFAULT_SPECS = [
  // The end-to-end files themselves, as `model:=FILE.onnx` takes them: Ultralytics' NMS inside.
  `${packagePath('.cache', 'registry-models', 'yolo11n.onnx')}`,
  `${packagePath('.cache', 'registry-models', 'yolo11n-seg.onnx')}`,
  // The shipped models, cut at the raw head (our NMS, with the removed NMS's IoU), FP32 and INT8,
  // against Ultralytics on the original end-to-end file.
  `yolo11n=${packagePath('.cache', 'registry-models', 'yolo11n.onnx')}@0.7`,
  `yolo11n-seg=${packagePath('.cache', 'registry-models', 'yolo11n-seg.onnx')}@0.45`,
].join(',');

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (printedHelp(args.rest, HELP)) return;
  const flags = new BenchFlags(args.rest);
  const specs = parseSpecs(flags.value('--models') ?? DEFAULT_SPECS);
  const dirs = (
    flags.value('--photos') ??
    ['photos', 'photos-holdout', 'photos-people', 'photos-unseen']
      .map((d) => packagePath('.cache', d))
      .join(',')
  ).split(',');
  const conf = Number(flags.value('--conf') ?? DEFAULT_THRESHOLDS.score);
  if (!(conf > 0 && conf < 1)) throw new Error('--conf needs a number between 0 and 1');
  flags.finish();
  const photos = dirs.filter((d) => fs.existsSync(d)).flatMap((d) => listPhotos(d));
  const { python } = ensureUltralytics();
  const rows: Row[] = [];
  const references = new Map<string, RefPhoto[]>();
  for (const spec of specs) {
    const manifestPath = resolveModelReference(spec.ours);
    const manifest = resolveModelManifest(manifestPath);
    for (const precision of ['fp32', 'int8'] as const) {
      const thresholds = {
        ...DEFAULT_THRESHOLDS,
        score: conf,
        iou: spec.iou ?? DEFAULT_THRESHOLDS.iou,
      };
      if (precision === 'int8' && manifest.modelPaths.int8 === undefined) continue;
      const pipeline = await ModelPipeline.load(
        manifestPath,
        { provider: 'cpu', precision, threads: 2 },
        thresholds,
      );
      const task = pipeline.manifest.task;
      if (task !== 'detect' && task !== 'segment')
        throw new Error(
          `${spec.ours}: a ${task} model; this bench compares detect and segment models`,
        );
      const file = spec.reference ?? pipeline.manifest.modelPaths.fp32;
      const key = `${task} ${file}`;
      let reference = references.get(key);
      if (!reference) {
        reference = runReference(python, file, task, conf, photos);
        references.set(key, reference);
      }
      const agreement = new Int8Agreement(task);
      for (const photo of reference) {
        const ours = await pipeline.run(await loadRgbFrame(photo.file));
        agreement.add(referenceResult(task, photo), ours);
      }
      pipeline.dispose();
      const r = agreement.report();
      const d = r.detections!;
      rows.push({
        model: /\.onnx$/.test(spec.ours) ? path.basename(spec.ours) : pipeline.name,
        format: pipeline.manifest.outputs.format,
        precision,
        photos: r.images,
        ultralytics: d.fp32,
        ours: d.int8,
        matched: d.matched,
        match_rate: round(d.matchRate)!,
        box_iou_mean: round(d.meanIou),
        score_diff_mean: round(d.meanScoreDrift),
        score_diff_max: round(d.maxScoreDrift),
        mask_iou_mean: r.masks ? round(r.masks.meanMaskIou) : null,
      });
    }
  }
  console.log(
    `${photos.length} photos (${dirs.map((d) => path.basename(d)).join(', ')}), conf ${conf}; Ultralytics predict() on the original ONNX file is the reference`,
  );
  console.log(
    formatTable(
      rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? '-']))),
    ),
  );
  if (args.jsonPath)
    writeBenchJson(args.jsonPath, {
      date: new Date().toISOString(),
      conf,
      photos: photos.map((p) => path.relative(packagePath(), p)),
      rows,
    });
}

if (require.main === module) runBench(main);
