/**
 * The main job before the ROS perception nodes exist: runs every model in models/ on the CPU
 * over a folder of real photos, writes annotated images and results as JSON, prints a summary.
 *
 *   node dist/src/tools/runModelsOnPhotos.js [--photos DIR] [--out DIR] [--precision fp32|int8|w8a16]
 *                                            [--models NAME,NAME]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findModelManifests } from '../config/findModelManifests';
import { loadModelManifest } from '../config/modelManifest';
import { packagePath } from '../packageRoot';
import type { Box } from '../core/headResults';
import { personBoxes, personClassIds } from '../pipeline/topDownPose';
import { PERCEPTION_PARAMETERS } from '../config/perceptionConfig';
import { ModelPipeline } from '../pipeline/modelPipeline';
import { PipelineResult } from '../core/pipelineResult';
import type { Precision } from '../pipeline/runtimeChoices';
import { renderAnnotated } from '../annotate/renderAnnotated';
import { resultAnnotation } from '../annotate/resultAnnotation';
import { formatTable } from '../util/formatTable';
import { percentile } from '../util/percentile';
import { listPhotos, loadRgbFrame } from '../photos/photoFrames';
import { printedHelp } from '../util/commandHelp';

/** Printed by --help: this file's header. */
const USAGE = `The main job before the ROS perception nodes exist: runs every model in models/ on the CPU
over a folder of real photos, writes annotated images and results as JSON, prints a summary.

  node dist/src/tools/runModelsOnPhotos.js [--photos DIR] [--out DIR] [--precision fp32|int8|w8a16]
                                           [--models NAME,NAME]

--models runs only the models so named (a top-down pose model needs a detector among them).`;

interface Args {
  photos: string;
  out: string;
  precision: Precision;
  /** Model names to run; empty: every model. */
  models: readonly string[];
}

function parseArgs(argv: readonly string[]): Args {
  const get = (flag: string, fallback: string): string => {
    const i = argv.indexOf(flag);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
  };
  const precision = get('--precision', 'fp32');
  if (precision !== 'fp32' && precision !== 'int8' && precision !== 'w8a16')
    throw new Error(`--precision must be fp32, int8 or w8a16, got ${precision}`);
  return {
    photos: get('--photos', packagePath('.cache', 'photos')),
    out: get('--out', packagePath('out', 'photos')),
    precision,
    models: get('--models', '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
  };
}

function progress(done: number, total: number, label: string): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`;
  if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(90)}`);
  else if (done === total || done % 10 === 0) process.stdout.write(`${line}\n`);
}

function count(
  result: PipelineResult,
  names: readonly string[],
  into: Map<string, number>,
): number {
  const bump = (k: string): void => void into.set(k, (into.get(k) ?? 0) + 1);
  switch (result.task) {
    case 'detect':
      result.detections.forEach((d) => bump(names[d.classId] ?? String(d.classId)));
      return result.detections.length;
    case 'pose':
      result.poses.forEach(() => bump('person (pose)'));
      return result.poses.length;
    case 'segment':
      result.instances.forEach((d) => bump(names[d.classId] ?? String(d.classId)));
      return result.instances.length;
    case 'semantic': {
      const present = new Set(result.map.data);
      present.forEach((c) => c !== 0 && bump(`${names[c] ?? c} (pixels present)`));
      return present.size - (present.has(0) ? 1 : 0);
    }
  }
}

/**
 * The detector's boxes of people for the top-down pose models: its `person` class where it has one
 * (a COCO detector: no skeleton on the dog), every box of a detector trained on people only.
 */
function personBoxesOf(result: PipelineResult | undefined, classNames: readonly string[]): Box[] {
  if (!result || result.task !== 'detect') return [];
  const ids = classNames.includes('person')
    ? new Set(personClassIds(classNames, ['person'], 'the detector'))
    : new Set(classNames.map((_, i) => i));
  return personBoxes(result.detections, ids);
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseArgs(process.argv.slice(2));
  const photos = listPhotos(args.photos).map((f) => path.basename(f));
  const all = findModelManifests(packagePath('models'), { skipExamples: true });
  const named = all.map((m) => loadModelManifest(m).name);
  const missing = args.models.filter((n) => !named.includes(n));
  if (missing.length > 0) {
    throw new Error(
      `--models: no model named ${missing.join(', ')} in ${packagePath('models')} (${named.join(', ')})`,
    );
  }
  const chosen = all.filter((_, i) => args.models.length === 0 || args.models.includes(named[i]!));
  // A quantized precision runs the models that have its file (an ExecuTorch program has none).
  const manifests = chosen.filter(
    (m) => args.precision === 'fp32' || loadModelManifest(m).files[args.precision] !== undefined,
  );
  for (const m of chosen.filter((c) => !manifests.includes(c)))
    process.stdout.write(`skipped ${loadModelManifest(m).name}: no int8 file\n`);
  const pipelines: ModelPipeline[] = [];
  for (const m of manifests)
    pipelines.push(
      await ModelPipeline.load(m, { provider: 'cpu', precision: args.precision, threads: 0 }),
    );
  // Top-down pose needs person boxes: the nodes' default detector provides them when it is loaded,
  // else the first pretrained detector.
  const detector =
    pipelines.find((p) => p.name === PERCEPTION_PARAMETERS.model.default) ??
    pipelines.find((p) => p.manifest.task === 'detect' && p.manifest.weights === 'pretrained') ??
    pipelines.find((p) => p.manifest.task === 'detect');
  const order = [...pipelines].sort(
    (a, b) => Number(a.needsPersonBoxes) - Number(b.needsPersonBoxes),
  );
  fs.mkdirSync(args.out, { recursive: true });

  const stats = new Map<
    string,
    {
      images: number;
      pre: number[];
      inf: number[];
      head: number[];
      found: number;
      counts: Map<string, number>;
    }
  >();
  for (const p of pipelines)
    stats.set(p.name, { images: 0, pre: [], inf: [], head: [], found: 0, counts: new Map() });
  const results: Record<string, Record<string, unknown>> = {};
  const total = photos.length * pipelines.length;
  let done = 0;
  for (const photo of photos) {
    const frame = await loadRgbFrame(path.join(args.photos, photo));
    const perModel: Record<string, PipelineResult> = {};
    for (const p of order) {
      const r = await p.run(
        frame,
        p.needsPersonBoxes && detector
          ? personBoxesOf(perModel[detector.name], detector.manifest.classNames)
          : [],
      );
      perModel[p.name] = r;
      const s = stats.get(p.name)!;
      s.images++;
      // A top-down model does not run on a photo without people: its timings are per run.
      if (r.timings.runs > 0) {
        s.pre.push(r.timings.preprocessMs);
        s.inf.push(r.timings.inferenceMs);
        s.head.push(r.timings.headMs);
      }
      s.found += count(r, p.manifest.classNames, s.counts);
      const annotated = await renderAnnotated(
        frame,
        resultAnnotation(r, p.manifest, frame.width, frame.height),
        'jpeg',
        88,
      );
      const dir = path.join(args.out, p.name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${path.parse(photo).name}.jpg`), annotated);
      done++;
      progress(done, total, `${p.name} ${photo}`);
    }
    results[photo] = Object.fromEntries(
      Object.entries(perModel).map(([k, v]) => [k, jsonResult(v)]),
    );
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  const summary = pipelines.map((p) => {
    const s = stats.get(p.name)!;
    const r = p.providerReport;
    return {
      model: p.name,
      weights: p.manifest.weights,
      processor: Object.entries(r.nodesByProvider)
        .map(([k, v]) => `${k.replace('ExecutionProvider', '')}:${v}`)
        .join(' '),
      images: s.images,
      found: s.found,
      preprocess_ms_p50: percentile(s.pre, 50),
      inference_ms_p50: percentile(s.inf, 50),
      head_ms_p50: percentile(s.head, 50),
    };
  });
  fs.writeFileSync(
    path.join(args.out, 'results.json'),
    JSON.stringify({ precision: args.precision, summary, results }, null, 1) + '\n',
  );
  process.stdout.write(
    `\n${photos.length} photos, ${pipelines.length} models (${args.precision}, CPU)\n${formatTable(summary)}\n\nfound per class:\n`,
  );
  for (const p of pipelines) {
    const c = [...stats.get(p.name)!.counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
    process.stdout.write(
      `  ${p.name}: ${c || 'nothing'}${p.manifest.weights === 'untrained' ? '  (untrained weights: plumbing only)' : ''}\n`,
    );
  }
  process.stdout.write(
    `\nannotated images and results.json in ${path.relative(process.cwd(), args.out) || '.'}\n`,
  );
  pipelines.forEach((p) => p.dispose());
}

/** Results as plain JSON: boxes and keypoints in source pixels; masks as pixel counts. */
function jsonResult(r: PipelineResult): unknown {
  const round = (v: number): number => Math.round(v * 100) / 100;
  const box = (b: Box): number[] => [b.x1, b.y1, b.x2, b.y2].map(round);
  switch (r.task) {
    case 'detect':
      return r.detections.map((d) => ({
        classId: d.classId,
        score: round(d.score),
        box: box(d.box),
      }));
    case 'pose':
      return r.poses.map((p) => ({
        score: round(p.score),
        box: box(p.box),
        keypoints: p.keypoints.map((k) => [round(k.x), round(k.y), round(k.score)]),
      }));
    case 'segment':
      return r.instances.map((d) => ({
        classId: d.classId,
        score: round(d.score),
        box: box(d.box),
        maskPixels: d.mask.data.reduce((a, v) => a + v, 0),
      }));
    case 'semantic': {
      const counts: Record<number, number> = {};
      // Where each class is: the box around its pixels, [x1, y1, x2, y2] (pixel edges).
      const extents: Record<number, [number, number, number, number]> = {};
      const { width, data } = r.map;
      for (let i = 0; i < data.length; i++) {
        const c = data[i]!;
        counts[c] = (counts[c] ?? 0) + 1;
        const x = i % width;
        const y = (i - x) / width;
        const e = (extents[c] ??= [x, y, x + 1, y + 1]);
        if (x < e[0]) e[0] = x;
        if (x + 1 > e[2]) e[2] = x + 1;
        e[3] = y + 1;
      }
      return { width, height: r.map.height, pixelsPerClass: counts, extentPerClass: extents };
    }
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`);
    process.exit(1);
  });
}
