import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadRclnodejs } from '../ros/rosEnvironment';
import { ImageIntake, type InputTransport } from '../ros/imageIntake';
import { cameraFrame } from '../ros/cameraFrame';
import { ConfigError } from '../core/configError';
import { loadSharp } from '../util/loadSharp';
import { framePixelsToRgb } from './framePixelsToRgb';

export interface CaptureOptions {
  readonly topic: string;
  readonly transport: InputTransport;
  readonly frames: number;
  /** Least time between two kept frames, so a still camera does not give N copies of one view. */
  readonly intervalMs: number;
  /** Give up when the frames have not all arrived after this long. */
  readonly timeoutMs: number;
  readonly directory: string;
}

export interface CaptureResult {
  readonly files: readonly string[];
  readonly received: number;
  readonly rejected: number;
}

/** Thrown when the topic delivers too few frames in time: the camera, not the command, is at fault. */
export class CaptureError extends Error {
  override readonly name = 'CaptureError';
}

/**
 * Subscribes to a camera topic over ROS 2 (sensor_msgs/Image in any encoding the intake decodes,
 * or CompressedImage), keeps one frame per interval, and saves each as a PNG in `directory`
 * (frame-0001.png, ...), which then calibrates like any folder of photos.
 */
export async function captureFrames(o: CaptureOptions): Promise<CaptureResult> {
  if (!Number.isInteger(o.frames) || o.frames < 1)
    throw new ConfigError(`--frames must be an integer >= 1, got ${o.frames}`);
  fs.mkdirSync(o.directory, { recursive: true });
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node(`htp_perception_calibration_capture_${process.pid}`);
  const files: string[] = [];
  let lastKept = -Infinity;
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => (done = r));
  const intake = new ImageIntake(
    rcl,
    node,
    // Reliable requests match only reliable publishers; best-effort matches both.
    { topic: o.topic, transport: o.transport, qos: 'sensor_data', qosCheckPeriodMs: 0 },
    (item) => {
      if (files.length >= o.frames || item.receivedAt - lastKept < o.intervalMs) return;
      lastKept = item.receivedAt;
      const file = path.join(o.directory, `frame-${String(files.length + 1).padStart(4, '0')}.png`);
      files.push(file);
      // A JPEG is decoded here (sharp); raw pixels are converted to rgb8 for the PNG.
      const pending = cameraFrame(item, files.length)
        .pixels()
        .then(async (px) => {
          const rgb = framePixelsToRgb(px);
          await loadSharp()(rgb.data, {
            raw: { width: rgb.width, height: rgb.height, channels: 3 },
          })
            .png()
            .toFile(file);
        });
      writing = writing.then(() => pending).catch((e: unknown) => void (writeError ??= e));
      if (files.length >= o.frames) void writing.then(done);
    },
  );
  node.spin();
  const timer = setTimeout(done, o.timeoutMs);
  try {
    await finished;
    await writing;
    if (writeError !== undefined) throw writeError;
    const saved = files.filter((f) => fs.existsSync(f));
    if (saved.length < o.frames) {
      const why =
        intake.counters.received === 0
          ? 'no message arrived (is the camera publishing? check the topic name and ROS_DOMAIN_ID)'
          : `${intake.counters.received} received, ${intake.counters.rejected} rejected${intake.counters.lastError ? ` (${intake.counters.lastError})` : ''}`;
      throw new CaptureError(
        `${intake.topic}: captured ${saved.length} of ${o.frames} frames in ${o.timeoutMs / 1000} s: ${why}`,
      );
    }
    return { files: saved, received: intake.counters.received, rejected: intake.counters.rejected };
  } finally {
    clearTimeout(timer);
    intake.destroy();
    node.destroy();
    if (!rcl.isShutdown()) rcl.shutdown();
  }
}
