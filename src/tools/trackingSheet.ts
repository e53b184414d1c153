/**
 * Tracking at a glance: a photo moves across the frame (or the frames of a real video play), the
 * detector tracks what it finds, and a contact sheet shows every few frames annotated with the
 * track ids ("#1") the node would publish.
 *
 *   node dist/src/tools/trackingSheet.js [--photo FILE | --video DIR] [--out FILE.png] [--frames N]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contactSheet, SheetTile } from '../annotate/contactSheet';
import { renderAnnotated } from '../annotate/renderAnnotated';
import { resultAnnotation } from '../annotate/resultAnnotation';
import {
  frameOptions,
  PERCEPTION_DEFAULTS,
  parsePerceptionConfig,
} from '../config/perceptionConfig';
import { packagePath } from '../packageRoot';
import { shiftedPhotoFrame } from '../photos/shiftedPhoto';
import { listPhotos, loadRgbFrame } from '../photos/photoFrames';
import { PerceptionPipeline } from '../pipeline/perceptionPipeline';
import { printedHelp } from '../util/commandHelp';

/** Printed by --help: this file's header. */
const USAGE = `Tracking at a glance: a photo moves across the frame (or the frames of a real video play), the
detector tracks what it finds, and a contact sheet shows every few frames annotated with the
track ids ("#1") the node would publish.

  node dist/src/tools/trackingSheet.js [--photo FILE | --video DIR] [--out FILE.png] [--frames N]

--video DIR plays the images of DIR in name order (e.g. .cache/video-people) instead.`;

interface Args {
  photo: string;
  /** A folder of video frames to play in name order, instead of moving the photo. */
  video: string | undefined;
  out: string;
  frames: number;
}

function parseArgs(argv: readonly string[]): Args {
  const get = (flag: string, fallback: string): string => {
    const i = argv.indexOf(flag);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
  };
  const frames = Number(get('--frames', '60'));
  if (!Number.isInteger(frames) || frames < 2 || frames > 1000)
    throw new RangeError(`--frames must be an integer in 2..1000, got ${get('--frames', '')}`);
  return {
    photo: get('--photo', packagePath('.cache', 'photos', 'person.jpg')),
    video: get('--video', '') || undefined,
    out: get('--out', packagePath('out', 'demo', 'tracking-sheet.png')),
    frames,
  };
}

const STEP_PX = 4;
const TILES = 9;

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseArgs(process.argv.slice(2));
  // The node's parameters (its default model) with tracking on; start thresholds lower than
  // ByteTrack's defaults, for the small, motion-blurred people of the video frames.
  const c = parsePerceptionConfig({
    ...PERCEPTION_DEFAULTS,
    tracking: true,
    track_high_threshold: 0.4,
    track_new_threshold: 0.45,
  });
  const video = args.video ? listPhotos(args.video) : undefined;
  if (video && video.length < 2) throw new RangeError(`--video ${args.video}: fewer than 2 frames`);
  const frames = video ? video.length : args.frames;
  const pipeline = await PerceptionPipeline.load(c, frameOptions(c));
  const start = -(STEP_PX * frames) / 2;
  const every = Math.max(1, Math.floor(frames / TILES));
  const tiles: SheetTile[] = [];
  const idsSeen = new Set<number>();
  try {
    for (let i = 0; i < frames; i++) {
      const frame = video
        ? await loadRgbFrame(video[i]!)
        : await shiftedPhotoFrame(args.photo, start + STEP_PX * i);
      const { result } = await pipeline.run(frame);
      if (result.task !== 'detect') throw new Error(`${c.model} is not a detection model`);
      const ids = result.detections.map((d) => d.trackId!);
      ids.forEach((id) => idsSeen.add(id));
      if (i % every !== 0 || tiles.length >= TILES) continue;
      const manifest = pipeline.model.manifest;
      tiles.push({
        caption: `frame ${i}: ${ids.map((id) => `#${id}`).join(' ') || 'no track'}`,
        image: await renderAnnotated(
          frame,
          resultAnnotation(result, manifest, frame.width, frame.height),
          'jpeg',
          85,
        ),
      });
    }
  } finally {
    pipeline.dispose();
  }
  fs.mkdirSync(path.dirname(path.resolve(args.out)), { recursive: true });
  fs.writeFileSync(args.out, await contactSheet(tiles));
  process.stdout.write(
    `${frames} frames${video ? ` of ${args.video}` : `, ${STEP_PX} px a frame`}; track ids seen: ${[...idsSeen].sort((a, b) => a - b).join(', ')}\ntracking sheet: ${args.out}\n`,
  );
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`);
    process.exit(1);
  });
}
