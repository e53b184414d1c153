/**
 * The crops a top-down pose model sees, as image files: person boxes of a detector on each photo,
 * each widened to the model's input aspect, padded by 1.25 and scaled onto the input size with
 * black outside the photo (planHrnetCrop, as the pipeline crops). INT8 calibration of BlazePose
 * uses them (bootstrap step 73): whole photos would calibrate on scenes it never sees.
 *
 *   node dist/src/tools/personCrops.js --photos DIR --out DIR [--detector NAME] [--size 256]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveModelReference } from '../config/perceptionConfig';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import { listPhotos, loadRgbFrame } from '../photos/photoFrames';
import { ModelPipeline } from '../pipeline/modelPipeline';
import { printedHelp } from '../util/commandHelp';
import { loadSharp } from '../util/loadSharp';

const USAGE = `The crops a top-down pose model sees, as PNG files: the person boxes of a detector on each
photo, widened to a square, padded by 1.25, black outside the photo, scaled to --size.

  node dist/src/tools/personCrops.js --photos DIR --out DIR [--detector NAME] [--size 256]`;

function flag(argv: readonly string[], name: string, fallback?: string): string {
  const i = argv.indexOf(name);
  const v = i >= 0 ? argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, USAGE)) return;
  const photos = flag(argv, '--photos');
  const out = flag(argv, '--out');
  const size = Number(flag(argv, '--size', '256'));
  if (!Number.isInteger(size) || size < 16) throw new Error('--size needs an integer >= 16');
  const detector = await ModelPipeline.load(
    resolveModelReference(flag(argv, '--detector', 'yolov8s-fall')),
    { provider: 'cpu', precision: 'fp32', threads: 0 },
  );
  const sharp = loadSharp();
  fs.mkdirSync(out, { recursive: true });
  let written = 0;
  try {
    for (const file of listPhotos(photos)) {
      const frame = await loadRgbFrame(file);
      const r = await detector.run(frame);
      if (r.task !== 'detect') throw new Error(`${detector.name} is not a detector`);
      for (const [i, d] of r.detections.entries()) {
        const plan = planHrnetCrop(d.box, frame.width, frame.height, {
          inputWidth: size,
          inputHeight: size,
        });
        // The region on a canvas padded black on every side, so a crop past the edge keeps
        // its scale; then one resize of the whole region onto the input.
        const { x, y, width, height } = plan.region;
        const left = Math.floor(x);
        const top = Math.floor(y);
        const w = Math.max(1, Math.ceil(x + width) - left);
        const h = Math.max(1, Math.ceil(y + height) - top);
        const pad = {
          left: Math.max(0, -left),
          top: Math.max(0, -top),
          right: Math.max(0, left + w - frame.width),
          bottom: Math.max(0, top + h - frame.height),
        };
        // Two passes: sharp applies extract before extend within one pipeline.
        const padded = await sharp(frame.data, {
          raw: { width: frame.width, height: frame.height, channels: 3 },
        })
          .extend({ ...pad, background: { r: 0, g: 0, b: 0 } })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const png = await sharp(padded.data, {
          raw: { width: padded.info.width, height: padded.info.height, channels: 3 },
        })
          .extract({ left: left + pad.left, top: top + pad.top, width: w, height: h })
          .resize(size, size, { fit: 'fill' })
          .png()
          .toBuffer();
        fs.writeFileSync(path.join(out, `${path.parse(file).name}-person${i}.png`), png);
        written++;
      }
    }
  } finally {
    detector.dispose();
  }
  process.stdout.write(`${written} person crops from ${photos} in ${out}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
