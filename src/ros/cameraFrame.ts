import { loadSharp } from '../util/loadSharp';
import type { Frame } from '../core/frame';
import { FrameError } from './frameError';
import type { IntakeFrame } from './imageIntake';
import type { RosHeader } from './rosHeader';

/**
 * One received camera image as every pipeline of the process sees it: the header, when it
 * arrived, and its pixels. Raw images are a view into the received message; a compressed image is
 * decoded on first request and the decoded pixels are shared by every later request, so N
 * pipelines on one camera decode each JPEG once (and none that every pipeline skipped).
 */
export interface CameraFrame {
  readonly header: RosHeader;
  /** performance.now() in the subscription callback. */
  readonly receivedAt: number;
  /** Delivery order on its topic, from 1. */
  readonly sequence: number;
  readonly transport: IntakeFrame['kind'];
  pixels(): Promise<Frame>;
}

export function cameraFrame(item: IntakeFrame, sequence: number): CameraFrame {
  if (item.kind === 'raw') {
    const f = item.frame;
    const pixels: Frame = {
      data: f.data,
      width: f.width,
      height: f.height,
      step: f.step,
      encoding: f.encoding,
    };
    const ready = Promise.resolve(pixels);
    return {
      header: f.header,
      receivedAt: item.receivedAt,
      sequence,
      transport: 'raw',
      pixels: () => ready,
    };
  }
  let decoded: Promise<Frame> | undefined;
  return {
    header: item.frame.header,
    receivedAt: item.receivedAt,
    sequence,
    transport: 'compressed',
    pixels: () => (decoded ??= decodeToRgb(item.frame.data, item.frame.format)),
  };
}

async function decodeToRgb(encoded: Uint8Array, format: string): Promise<Frame> {
  let out;
  try {
    out = await loadSharp()(encoded)
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (e) {
    // A camera's bytes, not our fault: counted by this code (errors_by_kind), not as sharp's
    // generic Error. The format string is only the sender's claim; sharp reads the data's magic.
    throw new FrameError(
      'UNDECODABLE',
      `compressed image data (format "${format.slice(0, 64)}", ${encoded.length} bytes) does not decode: ${e instanceof Error ? e.message.trim() : String(e)}`,
    );
  }
  const { data, info } = out;
  return { data, width: info.width, height: info.height, step: info.width * 3, encoding: 'rgb8' };
}
