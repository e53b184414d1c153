import { ConfigError } from '../core/configError';
import type { VideoEncoderChoice } from '../core/videoEncoders';
import type { V4l2DeviceReport, VideoCodec, VideoLibraries } from './videoAddon';

export interface ChosenEncoder {
  readonly codec: VideoCodec;
  /** The board's video hardware (a V4L2 memory-to-memory device) rather than the CPU. */
  readonly hardware: boolean;
  /** What the log, the diagnostics and the doctor call it. */
  readonly label: string;
  /** Why this one: what was asked and what the probe found. */
  readonly reason: string;
}

/** One device as the refusal and the doctor describe it. */
export function describeDevice(d: V4l2DeviceReport): string {
  if (d.error) return `${d.path} (${d.error})`;
  const who = `${d.driver}${d.card && d.card !== d.driver ? ` '${d.card}'` : ''}`;
  if (!d.memoryToMemory) return `${d.path} (${who}: not memory-to-memory)`;
  if (d.h264Encoder) return `${d.path} (${who}: H.264 encoder, NV12 in)`;
  return `${d.path} (${who}: memory-to-memory, makes ${d.codedFormats.join('/') || 'nothing'} from ${d.rawFormats.join('/') || 'nothing'})`;
}

/** Every device probed, for a message: "no /dev/video* device" when there were none. */
export function describeProbe(devices: readonly V4l2DeviceReport[], dir = '/dev'): string {
  if (devices.length === 0) return `no ${dir}/video* device`;
  return devices.map(describeDevice).join(', ');
}

/** The first V4L2 M2M H.264 encoder the probe found, if libavcodec can drive it. */
function hardwareEncoder(
  devices: readonly V4l2DeviceReport[],
  libraries: VideoLibraries,
): V4l2DeviceReport | undefined {
  if (!libraries.libavcodecEncoders.includes('h264_v4l2m2m')) return undefined;
  return devices.find((d) => d.h264Encoder);
}

/**
 * Which encoder `choice` means on this machine. `v4l2` without a usable device, or `x264` without
 * libavcodec's libx264, is a ConfigError naming what was probed; `auto` takes the hardware when
 * present and OpenH264 otherwise.
 */
export function chooseEncoder(
  choice: VideoEncoderChoice,
  devices: readonly V4l2DeviceReport[],
  libraries: VideoLibraries,
): ChosenEncoder {
  const software: ChosenEncoder = {
    codec: 'openh264',
    hardware: false,
    label: `software (OpenH264 ${libraries.openh264})`,
    reason: '',
  };
  if (choice === 'software') return { ...software, reason: 'video_encoder software' };
  if (choice === 'x264') {
    if (!libraries.libavcodecEncoders.includes('libx264')) {
      throw new ConfigError(
        `video_encoder x264: ${libraries.libavcodec ? `${libraries.libavcodec} was built without libx264` : 'the video addon was built without libavcodec'}; use software (OpenH264)`,
      );
    }
    return {
      codec: 'x264',
      hardware: false,
      label: `software (x264 through ${libraries.libavcodec}, GPL)`,
      reason: 'video_encoder x264',
    };
  }
  const device = hardwareEncoder(devices, libraries);
  if (device) {
    return {
      codec: 'v4l2m2m',
      hardware: true,
      label: `V4L2 hardware (${device.path}, ${device.driver || 'unknown driver'})`,
      reason: `video_encoder ${choice}: ${describeDevice(device)}`,
    };
  }
  const why = libraries.libavcodecEncoders.includes('h264_v4l2m2m')
    ? `no V4L2 memory-to-memory H.264 encoder: probed ${describeProbe(devices)}`
    : `the video addon has no libavcodec with h264_v4l2m2m (${libraries.libavcodec ?? 'built without libavcodec'})`;
  if (choice === 'v4l2') throw new ConfigError(`video_encoder v4l2: ${why}`);
  return { ...software, reason: `video_encoder auto: ${why}` };
}
