/**
 * The depth side of a camera: its aligned depth image and CameraInfo, taken raw and decoded in
 * place like colour frames, and paired with a colour frame by stamp when its result is ready (by
 * then the depth of the same instant has arrived; nothing waits for it). Keeps the last few depth
 * frames and the last CameraInfo; a malformed one is counted and dropped.
 */
import type * as Rclnodejs from 'rclnodejs';
import { CameraModel, CameraModelError } from '../depth/cameraModel';
import {
  decodeCameraInfo,
  decodeCompressedDepthImage,
  decodeDepthImage,
  DepthFrame,
} from './codecs/depthCodecs';
import { FrameError, type FrameErrorCode } from './frameError';
import { makeQos, QosName } from './qosProfile';
import { rawSubscriptionOptions } from './directTake';
import { messageLostCounter, type MessageLostCounter } from './messageLost';
import type { RosTime } from './rosHeader';

/** How depth images arrive: sensor_msgs/Image, or image_transport's compressedDepth. */
export type DepthTransport = 'raw' | 'compressedDepth';

export interface DepthInput {
  readonly depthTopic: string;
  readonly depthTransport: DepthTransport;
  readonly cameraInfoTopic: string;
  readonly qos: QosName;
}

/** Why a depth image or CameraInfo was dropped: a FrameError code, or a CameraInfo no camera fits. */
export type DepthRejectReason = FrameErrorCode | 'BAD_CAMERA_INFO';

/** Which of the two subscriptions a rejected message came on. */
export type DepthInputKind = 'depth' | 'camera_info';

export interface DepthCounters {
  depthReceived: number;
  depthRejected: number;
  depthRejectedByCode: Partial<Record<DepthRejectReason, number>>;
  cameraInfoReceived: number;
  cameraInfoRejected: number;
  cameraInfoRejectedByCode: Partial<Record<DepthRejectReason, number>>;
  /** Messages DDS lost before the take on each subscription (ImageIntake's `lost`). */
  readonly depthLost: number | undefined;
  readonly cameraInfoLost: number | undefined;
  lastError?: string;
  /** performance.now() of the newest depth image / CameraInfo, valid or not (stale-input check). */
  depthLastReceivedAt: number | undefined;
  cameraInfoLastReceivedAt: number | undefined;
}

/** Why a colour frame got no depth: counted per reason in the diagnostics. */
export type NoDepthReason =
  'no_depth_yet' | 'no_depth_in_slop' | 'no_camera_info' | 'bad_camera_info';

export type DepthMatch =
  { readonly depth: DepthFrame; readonly camera: CameraModel } | { readonly reason: NoDepthReason };

/** Depth frames kept for pairing: a few frames of a 30 Hz camera cover any result's latency. */
const KEEP = 4;

const ns = (t: RosTime) => BigInt(t.sec) * 1_000_000_000n + BigInt(t.nanosec);

export class DepthIntake {
  readonly counters: DepthCounters;
  private readonly depthLost: MessageLostCounter;
  private readonly infoLost: MessageLostCounter;
  private readonly recent: DepthFrame[] = [];
  private camera: CameraModel | undefined;
  private cameraError = '';
  private readonly depthSub: Rclnodejs.Subscription;
  private readonly infoSub: Rclnodejs.Subscription;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    input: DepthInput,
    private readonly onReject: (
      input: DepthInputKind,
      code: DepthRejectReason,
      message: string,
    ) => void,
  ) {
    const qos = makeQos(rcl, input.qos);
    const compressed = input.depthTransport === 'compressedDepth';
    const decode = compressed ? decodeCompressedDepthImage : decodeDepthImage;
    this.depthSub = node.createSubscription(
      compressed ? 'sensor_msgs/msg/CompressedImage' : 'sensor_msgs/msg/Image',
      input.depthTopic,
      rawSubscriptionOptions(qos),
      (m: unknown) => this.takeDepth(m as Buffer, decode),
    );
    this.infoSub = node.createSubscription(
      'sensor_msgs/msg/CameraInfo',
      input.cameraInfoTopic,
      { isRaw: true, qos },
      (m: unknown) => this.takeCameraInfo(m as Buffer),
    );
    const depthLost = messageLostCounter(this.depthSub);
    const infoLost = messageLostCounter(this.infoSub);
    this.depthLost = depthLost;
    this.infoLost = infoLost;
    this.counters = {
      depthReceived: 0,
      depthRejected: 0,
      depthRejectedByCode: {},
      cameraInfoReceived: 0,
      cameraInfoRejected: 0,
      cameraInfoRejectedByCode: {},
      // Read when the diagnostics ask (1 Hz), not per message.
      get depthLost() {
        return depthLost.total;
      },
      get cameraInfoLost() {
        return infoLost.total;
      },
      depthLastReceivedAt: undefined,
      cameraInfoLastReceivedAt: undefined,
    };
  }

  get depthTopic(): string {
    return this.depthSub.topic;
  }

  get cameraInfoTopic(): string {
    return this.infoSub.topic;
  }

  /**
   * The depth frame nearest in stamp to `stamp` within `slopMs`, with the camera model; or why
   * there is none.
   */
  match(stamp: RosTime, slopMs: number): DepthMatch {
    if (!this.camera) return { reason: this.cameraError ? 'bad_camera_info' : 'no_camera_info' };
    if (this.recent.length === 0) return { reason: 'no_depth_yet' };
    const want = ns(stamp);
    let best: DepthFrame | undefined;
    let bestGap = 0n;
    for (const f of this.recent) {
      const d = ns(f.header.stamp) - want;
      const gap = d < 0n ? -d : d;
      if (!best || gap < bestGap) {
        best = f;
        bestGap = gap;
      }
    }
    if (!best || Number(bestGap) / 1e6 > slopMs) return { reason: 'no_depth_in_slop' };
    return { depth: best, camera: this.camera };
  }

  destroy(): void {
    this.depthLost.destroy();
    this.infoLost.destroy();
    this.node.destroySubscription(this.depthSub);
    this.node.destroySubscription(this.infoSub);
    this.recent.length = 0;
  }

  private takeDepth(message: Buffer, decode: (m: Uint8Array) => DepthFrame): void {
    this.counters.depthReceived++;
    this.counters.depthLastReceivedAt = performance.now();
    try {
      this.recent.push(decode(message));
      if (this.recent.length > KEEP) this.recent.shift();
    } catch (e) {
      if (!(e instanceof FrameError)) throw e;
      this.counters.depthRejected++;
      const by = this.counters.depthRejectedByCode;
      by[e.code] = (by[e.code] ?? 0) + 1;
      this.reject('depth', e.code, `dropped a bad depth frame on ${this.depthTopic}: ${e.message}`);
    }
  }

  private takeCameraInfo(message: Buffer): void {
    this.counters.cameraInfoReceived++;
    this.counters.cameraInfoLastReceivedAt = performance.now();
    try {
      this.camera = CameraModel.fromCameraInfo(decodeCameraInfo(message).info);
      this.cameraError = '';
    } catch (e) {
      if (!(e instanceof FrameError) && !(e instanceof CameraModelError)) throw e;
      this.counters.cameraInfoRejected++;
      this.camera = undefined;
      this.cameraError = e.message;
      const code: DepthRejectReason = e instanceof FrameError ? e.code : 'BAD_CAMERA_INFO';
      const by = this.counters.cameraInfoRejectedByCode;
      by[code] = (by[code] ?? 0) + 1;
      this.reject(
        'camera_info',
        code,
        `dropped a bad CameraInfo on ${this.cameraInfoTopic}: ${e.message}`,
      );
    }
  }

  private reject(input: DepthInputKind, code: DepthRejectReason, message: string): void {
    this.counters.lastError = message;
    this.onReject(input, code, message);
  }
}
