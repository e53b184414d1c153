import * as fs from 'node:fs';
import sharp from 'sharp';
import {
  ModelPipeline,
  packagePath,
  percentile,
  renderAnnotated,
  resultAnnotation,
  videoAddon,
} from '../../src/index';
import { checkH264 } from '../../test/support/h264Check';

/** One stream kind of the comparison: JPEG pictures, or H.264 at a bitrate. */
export interface VideoCodec {
  readonly name: string;
  readonly kind: 'jpeg' | 'h264';
  /** JPEG quality (the node's jpeg_quality). */
  readonly quality: number;
  /** H.264 target (the node's video_bitrate_kbps). */
  readonly bitrateKbps: number;
  /** H.264 encoder (the node's video_encoder): OpenH264, or x264 (GPL, only when chosen). */
  readonly encoder: 'software' | 'x264';
}

/** JPEG, OpenH264 at each bitrate, and x264 at `x264Kbps` (0: none) where libavcodec has it. */
export function videoCodecs(
  jpegQuality: number,
  bitrates: readonly number[],
  x264Kbps: number,
): VideoCodec[] {
  const h264 = (b: number, encoder: 'software' | 'x264'): VideoCodec => ({
    name: `${encoder === 'x264' ? 'x264' : 'h264'} ${b} kbit/s`,
    kind: 'h264',
    quality: 0,
    bitrateKbps: b,
    encoder,
  });
  const loaded = videoAddon();
  const x264 =
    x264Kbps > 0 &&
    !('problem' in loaded) &&
    loaded.addon.libraries().libavcodecEncoders.includes('libx264');
  return [
    {
      name: `jpeg q${jpegQuality}`,
      kind: 'jpeg',
      quality: jpegQuality,
      bitrateKbps: 0,
      encoder: 'software',
    },
    ...bitrates.map((b) => h264(b, 'software')),
    ...(x264 ? [h264(x264Kbps, 'x264')] : []),
  ];
}

/** What one codec made of the annotated pictures at one size and rate (no ROS involved). */
export interface CodecRow {
  readonly size: string;
  readonly rate_hz: number;
  readonly codec: string;
  readonly frames: number;
  readonly kbytes_per_s: number;
  readonly kbytes_per_frame_mean: number;
  /** The encoder's CPU per picture: JPEG the process's (sharp), H.264 the addon worker's. */
  readonly encode_cpu_ms_p50: number;
  readonly encode_cpu_ms_p95: number;
  /** Luma SSIM of each decoded picture against the annotated raw one. */
  readonly ssim_mean: number;
  readonly ssim_min: number;
  readonly psnr_db_mean: number;
  readonly keyframes: number;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

/**
 * The pictures an operator would be sent: each camera frame with the default detector's real
 * detections drawn (yolo11n on the CPU) and a badge like the node's.
 */
export async function annotatedPictures(
  files: readonly string[],
  width: number,
  height: number,
): Promise<Buffer[]> {
  const manifest = packagePath('models', 'yolo11n', 'yolo11n.manifest.json');
  const pipeline = await ModelPipeline.load(manifest, {
    provider: 'cpu',
    precision: 'fp32',
    threads: 2,
  });
  const out: Buffer[] = [];
  try {
    for (const file of files) {
      const data = fs.readFileSync(file);
      const frame = { data, width, height, step: width * 3, encoding: 'rgb8' as const };
      const result = await pipeline.run(frame);
      const annotation = {
        ...resultAnnotation(result, pipeline.manifest, width, height),
        badge: 'CPU  10.0 fps  48 ms',
      };
      out.push(await renderAnnotated({ data, width, height }, annotation, 'rgb8'));
    }
  } finally {
    pipeline.dispose();
  }
  return out;
}

/** Each message decoded independently (tools/video/h264_check.py) against its picture. */
function quality(
  kind: 'jpeg' | 'h264',
  messages: readonly Buffer[],
  pictures: readonly Buffer[],
  width: number,
  height: number,
): { ssim: number[]; psnr: number[] } {
  const checked = checkH264(messages, { frames: pictures, width, height }, kind);
  checked.messages.forEach((m, i) => {
    if (m.error || m.frames !== 1 || m.ssim === undefined) {
      throw new Error(`${kind} message ${i} did not decode to one picture: ${JSON.stringify(m)}`);
    }
  });
  return {
    ssim: checked.messages.map((m) => m.ssim ?? 0),
    psnr: checked.messages.map((m) => m.psnr ?? 0),
  };
}

/** Encodes every picture with `codec` as a stream at `rateHz`; its size, CPU and quality. */
export async function codecRow(
  codec: VideoCodec,
  pictures: readonly Buffer[],
  width: number,
  height: number,
  rateHz: number,
  keyframeIntervalS: number,
): Promise<CodecRow> {
  const messages: Buffer[] = [];
  const cpu: number[] = [];
  let keyframes = 0;
  if (codec.kind === 'jpeg') {
    for (const p of pictures) {
      const before = process.cpuUsage();
      const jpeg = await sharp(p, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: codec.quality })
        .toBuffer();
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      messages.push(jpeg);
      keyframes++;
    }
  } else {
    const loaded = videoAddon();
    if ('problem' in loaded) throw new Error(loaded.problem);
    const encoder = new loaded.addon.VideoEncoder({
      codec: codec.encoder === 'x264' ? 'x264' : 'openh264',
      width,
      height,
      bitrateKbps: codec.bitrateKbps,
      frameRate: rateHz,
    });
    const every = Math.max(1, Math.round(keyframeIntervalS * rateHz));
    try {
      for (let i = 0; i < pictures.length; i++) {
        const r = await encoder.encode(
          pictures[i]!,
          Math.round((i * 1000) / rateHz),
          i % every === 0,
        );
        const [packet] = r.packets;
        if (!packet || r.packets.length !== 1)
          throw new Error(`picture ${i}: ${r.packets.length} packets`);
        cpu.push(r.cpuMs);
        messages.push(packet.data);
        if (packet.keyframe) keyframes++;
      }
    } finally {
      encoder.close();
    }
  }
  const q = quality(codec.kind, messages, pictures, width, height);
  const bytes = messages.reduce((a, m) => a + m.length, 0) / messages.length;
  const mean = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    size: `${width}x${height}`,
    rate_hz: rateHz,
    codec: codec.name,
    frames: messages.length,
    kbytes_per_s: round((bytes * rateHz) / 1000, 1),
    kbytes_per_frame_mean: round(bytes / 1000),
    encode_cpu_ms_p50: round(percentile(cpu, 50)),
    encode_cpu_ms_p95: round(percentile(cpu, 95)),
    ssim_mean: round(mean(q.ssim), 4),
    ssim_min: round(Math.min(...q.ssim), 4),
    psnr_db_mean: round(mean(q.psnr)),
    keyframes,
  };
}
