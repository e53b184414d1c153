/**
 * The one door to the video addon (native/video/, htp_video.node): nothing else requires it.
 * Types its surface as native/video/src/video_encoder_js.h and addon.cc document it. The addon is
 * optional: a package built without it runs everything but the H.264 stream, and says why.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VIDEO_DIR } from '../packageRoot';

/** The codecs the addon can open (libavcodec's only where it was built with them). */
export type VideoCodec = 'openh264' | 'x264' | 'v4l2m2m';

export interface NativeEncoderOptions {
  codec: VideoCodec;
  /** Even, 16..8192. */
  width: number;
  height: number;
  bitrateKbps: number;
  /** The rate the encoder's rate control expects (whole frames per second). */
  frameRate: number;
  /** Tests only, honoured while HTP_PERCEPTION_TEST_VIDEO_FAULTS is set: pictures before encode fails. */
  testFailAfterFrames?: number;
}

export interface EncodedPacket {
  /** One Annex B access unit. */
  readonly data: Buffer;
  /** The pts of the frame it encodes (ms, as passed to encode). */
  readonly pts: number;
  /** Holds an IDR picture (with SPS and PPS before it). */
  readonly keyframe: boolean;
}

export interface EncodeResult {
  /** Usually one; an encoder with a pipeline (V4L2) may hand a frame's packet out later. */
  readonly packets: readonly EncodedPacket[];
  readonly convertMs: number;
  readonly encodeMs: number;
  /** CPU time of the worker thread for conversion and encoding. */
  readonly cpuMs: number;
}

export interface NativeVideoEncoder {
  /** Rejects with an Error naming the codec's failure; throws while a call is running. */
  encode(rgb: Uint8Array, pts: number, forceIdr: boolean): Promise<EncodeResult>;
  /**
   * The rate pictures really arrive at, for rate control; false while a frame is encoding or where
   * the codec cannot change it (libavcodec's: they plan from the timestamps and the opening rate).
   */
  setFrameRate(fps: number): boolean;
  /** "openh264 2.3.1", "libavcodec 59.37.100 h264_v4l2m2m". */
  describe(): string;
  close(): void;
}

export interface V4l2DeviceReport {
  readonly path: string;
  readonly driver: string;
  readonly card: string;
  /** Why it could not be asked (open or VIDIOC_QUERYCAP failed), else ''. */
  readonly error: string;
  readonly memoryToMemory: boolean;
  readonly codedFormats: readonly string[];
  readonly rawFormats: readonly string[];
  /** An M2M device that turns NV12 into H.264. */
  readonly h264Encoder: boolean;
}

export interface VideoLibraries {
  readonly openh264: string;
  /** null when the addon was built without libavcodec. */
  readonly libavcodec: string | null;
  readonly libavcodecEncoders: readonly ('h264_v4l2m2m' | 'libx264')[];
}

export interface VideoAddon {
  VideoEncoder: new (options: NativeEncoderOptions) => NativeVideoEncoder;
  /** Every `<dir>/video*` node (default /dev) asked for its capabilities and formats. */
  probeV4l2(dir?: string): V4l2DeviceReport[];
  libraries(): VideoLibraries;
  /** Tests only: the rgb8 to 4:2:0 conversion the encoders are fed by (BT.601 limited range). */
  convertToYuv420(rgb: Uint8Array, width: number, height: number, layout: 'i420' | 'nv12'): Buffer;
}

/** HTP_VIDEO_ADDON, else the package's own (src/packageRoot.ts). */
export const VIDEO_ADDON_PATH =
  process.env.HTP_VIDEO_ADDON ?? path.join(VIDEO_DIR, 'htp_video.node');

let loaded: { addon: VideoAddon } | { problem: string } | undefined;

/** The addon, or why there is none (a sentence naming the file and how to build it). */
export function videoAddon(): { addon: VideoAddon } | { problem: string } {
  if (loaded) return loaded;
  if (!fs.existsSync(VIDEO_ADDON_PATH)) {
    loaded = {
      problem: `the video addon ${VIDEO_ADDON_PATH} is not built (apt-get install libopenh264-dev libavcodec-dev, then 'bash scripts/bootstrap.sh 66-video')`,
    };
    return loaded;
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = { addon: require(VIDEO_ADDON_PATH) as VideoAddon };
  } catch (err) {
    loaded = {
      problem: `the video addon ${VIDEO_ADDON_PATH} failed to load (${(err as Error).message}): a library it links is missing (libopenh264, libavcodec) or it was built for another system; rebuild it with 'bash scripts/bootstrap.sh 66-video'`,
    };
  }
  return loaded;
}
