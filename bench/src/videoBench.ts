/**
 * npm run bench:video [-- --frames 90 --seconds 8 --sizes 640x480,1280x720 --rates 10,30
 *                        --bitrates 250,500,1000 --x264 300 --json out.json --png out.png
 *                        --skip-codec --skip-dds]
 *
 * The operator's stream as JPEG and as H.264, measured two ways on the same real video
 * (opencv-doc's vtest.avi, pedestrians in a street, its first --frames frames, scaled to cover and
 * centre-cropped per size):
 *  - codec (this process, no ROS): every frame with the default detector's real detections drawn
 *    (yolo11n, CPU) and a badge, encoded as the node would at each rate (JPEG at jpeg_quality 75;
 *    OpenH264 at each bitrate, and x264 (video_encoder x264, GPL) at --x264 kbit/s (0: none), an
 *    IDR every 2 s): kB/s, the encoder's CPU per picture (JPEG: this
 *    process's CPU around sharp's encode; H.264: the addon worker's thread CPU for colour
 *    conversion and encoding) and quality: each message decoded by an independent decoder (PyAV's
 *    FFmpeg for H.264, OpenCV for JPEG) and compared with the raw annotated picture (luma SSIM,
 *    PSNR);
 *  - over DDS: an rclpy camera stand-in publishes the same frames (rgb8) at each rate to a
 *    perception node running the HTP stand-in (bench:e2e's: the detector's input and output, five
 *    people, no compute, so the node keeps up at 30 Hz and only the views' work differs); per rate
 *    this process watches the detections with nobody else watching, then with a JPEG viewer, then
 *    a video viewer at each bitrate, then nobody again: detections' rate and camera-stamp latency,
 *    the view's rate, kB/s and camera-stamp latency, and the node's CPU per frame.
 * Prints both tables with the CPU model, writes JSON (default bench/results/figures/video.json)
 * and a chart of every stream's kB/s labelled with its SSIM (default bench/results/figures/video.png).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { formatTable, loadRclnodejs, packagePath, printedHelp } from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { runBench, writeBenchJson } from './benchOutput';
import { writeHtpStandin } from './htpStandinModel';
import { barChartSvg } from './barChartSvg';
import { annotatedPictures, codecRow, type CodecRow, videoCodecs } from './videoCodecRows';
import { ddsRows, type DdsRow } from './videoDdsRows';
import { writeVideoFrames } from './videoFrames';

const USAGE = `npm run bench:video [-- --frames 90 --seconds 8 --sizes 640x480,1280x720 --rates 10,30
                       --bitrates 250,500,1000 --x264 300 --json out.json --png out.png
                       --skip-codec --skip-dds]

The annotated stream as JPEG (jpeg_quality 75) and as H.264 (OpenH264 at each bitrate, x264 at
--x264 kbit/s, 0: none) on a real
video: per size, rate and codec, kB/s, encode CPU per picture and SSIM of the decoded pictures
against the raw annotated ones (in this process); then over DDS with a perception node (HTP
stand-in) and an rclpy camera: detections' rate and latency with nobody, a JPEG viewer or a video
viewer watching, the view's kB/s and camera-stamp latency, the node's CPU per frame.`;

const JPEG_QUALITY = 75;
const KEYFRAME_INTERVAL_S = 2;

function list(value: string | undefined, fallback: string): string[] {
  return (value ?? fallback).split(',').filter((v) => v !== '');
}

function sizeOf(s: string): [number, number] {
  const m = /^(\d+)x(\d+)$/.exec(s);
  if (!m) throw new Error(`--sizes: '${s}' is not WIDTHxHEIGHT`);
  return [Number(m[1]), Number(m[2])];
}

/** kB/s of every stream, JPEG's against H.264's, each labelled with its SSIM. */
function chart(rows: readonly CodecRow[], cpu: string): string {
  return barChartSvg(
    `Annotated stream on vtest.avi: kB/s (label: mean luma SSIM), ${cpu}`,
    'kB/s',
    ['kB/s'],
    rows.map((r) => ({
      label: `${r.size} ${r.rate_hz} Hz ${r.codec}, SSIM ${r.ssim_mean.toFixed(3)}`,
      values: [r.kbytes_per_s],
    })),
  );
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const flags = new BenchFlags(args.rest);
  const frameCount = Number(flags.value('--frames') ?? 90);
  const sizes = list(flags.value('--sizes'), '640x480,1280x720');
  const rates = list(flags.value('--rates'), '10,30').map(Number);
  const bitrates = list(flags.value('--bitrates'), '250,500,1000').map(Number);
  const x264Kbps = Number(flags.value('--x264') ?? 300);
  const pngPath = flags.value('--png') ?? packagePath('bench', 'results', 'figures', 'video.png');
  const skipCodec = flags.has('--skip-codec');
  const skipDds = flags.has('--skip-dds');
  flags.finish();
  const seconds = args.seconds ?? 8;
  const jsonPath = args.jsonPath ?? packagePath('bench', 'results', 'figures', 'video.json');
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-bench-video-'));
  const codecs = videoCodecs(JPEG_QUALITY, bitrates, x264Kbps);
  try {
    const frames = writeVideoFrames(path.join(tmp, 'frames'), frameCount, sizes);
    process.stdout.write(
      `bench:video on ${cpu}, ${os.cpus().length} cores; ${frames.video} (${frames.source.width}x${frames.source.height}, ${frames.source.fps} fps), ${frameCount} frames\n`,
    );
    const codecTable: CodecRow[] = [];
    if (!skipCodec) {
      for (const size of sizes) {
        const [w, h] = sizeOf(size);
        const pictures = await annotatedPictures(frames.files[size] ?? [], w, h);
        for (const rate of rates) {
          for (const codec of codecs) {
            const row = await codecRow(codec, pictures, w, h, rate, KEYFRAME_INTERVAL_S);
            codecTable.push(row);
            process.stderr.write(
              `${size} ${rate} Hz ${codec.name}: ${row.kbytes_per_s} kB/s, ${row.encode_cpu_ms_p50} ms CPU, SSIM ${row.ssim_mean} (min ${row.ssim_min})\n`,
            );
          }
        }
      }
    }
    const ddsTable: DdsRow[] = [];
    if (!skipDds) {
      process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? '78';
      const rcl = loadRclnodejs();
      await rcl.init();
      const node = new rcl.Node('video_bench_watcher');
      node.spin();
      try {
        const standin = writeHtpStandin(
          packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
          path.join(tmp, 'standin'),
        );
        for (const size of sizes) {
          ddsTable.push(
            ...(await ddsRows(
              node,
              sizeOf(size),
              frames.files[size] ?? [],
              standin,
              rates,
              codecs,
              seconds,
            )),
          );
        }
      } finally {
        node.destroy();
        rcl.shutdown();
      }
    }
    if (codecTable.length) {
      process.stdout.write(
        `\ncodec (in process; ${cpu})\n${formatTable(codecTable.map((r) => ({ ...r })))}\n`,
      );
    }
    if (ddsTable.length) {
      process.stdout.write(
        `\nover DDS (HTP stand-in node; ${cpu})\n${formatTable(ddsTable.map((r) => ({ ...r })))}\n`,
      );
    }
    writeBenchJson(jsonPath, {
      date: new Date().toISOString(),
      cpu,
      cores: os.cpus().length,
      video: { file: frames.video, ...frames.source, frames: frameCount },
      jpeg_quality: JPEG_QUALITY,
      keyframe_interval_s: KEYFRAME_INTERVAL_S,
      codec: codecTable,
      dds: ddsTable,
    });
    if (codecTable.length) {
      fs.mkdirSync(path.dirname(path.resolve(pngPath)), { recursive: true });
      await sharp(Buffer.from(chart(codecTable, cpu)))
        .png()
        .toFile(pngPath);
      process.stdout.write(`wrote ${pngPath}\n`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) runBench(main);
