import type * as Rclnodejs from 'rclnodejs';
import { decodeImage, ImageFrame } from './codecs/imageCodec';
import { CompressedFrame, decodeCompressedImage } from './codecs/compressedImageCodec';
import { FrameError, FrameErrorCode } from './frameError';
import { makeQos, QosName } from './qosProfile';
import { EndpointQos, incompatibility } from './qosCompatibility';
import { framePacer } from '../util/frameGarbagePacer';
import { rawSubscriptionOptions, takeKind, TakeKind } from './directTake';
import { messageLostCounter, type MessageLostCounter } from './messageLost';

export type InputTransport = 'raw' | 'compressed';

/** What the intake delivers: decoded, validated, pixels viewing the received buffer. */
export type IntakeFrame =
  | { readonly kind: 'raw'; readonly frame: ImageFrame; readonly receivedAt: number }
  | { readonly kind: 'compressed'; readonly frame: CompressedFrame; readonly receivedAt: number };

export interface ImageIntakeOptions {
  readonly topic: string;
  readonly transport: InputTransport;
  readonly qos: QosName;
  /** How often to look for publishers whose QoS cannot match ours, in ms (0 disables). */
  readonly qosCheckPeriodMs?: number;
}

export interface IntakeCounters {
  received: number;
  rejected: number;
  rejectedByCode: Partial<Record<FrameErrorCode, number>>;
  /**
   * Messages DDS lost before the take, as the RMW reports them (messageLost.ts: not what a
   * keep-last history overwrote); undefined where it does not report them.
   */
  readonly lost: number | undefined;
  lastError?: string;
  incompatiblePublishers: string[];
  /** How the subscription takes frames: with one copy (`direct`) or rmw's two (`serialized`). */
  take: TakeKind;
  /**
   * performance.now() when the newest message arrived, valid or not (a camera sending bad frames
   * is not silent); undefined before the first. The nodes' stale-input check reads it.
   */
  lastReceivedAt: number | undefined;
}

/**
 * Subscribes to sensor_msgs/Image or CompressedImage as serialized messages and decodes them
 * ourselves: rclnodejs' deserializing path copies the pixel array element by element into a JS
 * object, which cannot keep up with camera rates. A bad frame is counted and reported, never thrown.
 */
export class ImageIntake {
  readonly counters: IntakeCounters;
  private readonly subscription: Rclnodejs.Subscription;
  private readonly lost: MessageLostCounter;
  private readonly qosTimer: Rclnodejs.Timer | undefined;
  private readonly reportedPublishers = new Set<string>();

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    private readonly options: ImageIntakeOptions,
    private readonly onFrame: (frame: IntakeFrame) => void,
    private readonly onReject: (error: FrameError) => void = () => undefined,
  ) {
    const type =
      options.transport === 'raw' ? 'sensor_msgs/msg/Image' : 'sensor_msgs/msg/CompressedImage';
    this.subscription = node.createSubscription(
      type,
      options.topic,
      rawSubscriptionOptions(makeQos(rcl, options.qos)),
      (message: unknown) => this.handle(message as Buffer),
    );
    const lost = messageLostCounter(this.subscription);
    this.lost = lost;
    this.counters = {
      received: 0,
      rejected: 0,
      rejectedByCode: {},
      // Read when the diagnostics ask (1 Hz), not per message.
      get lost() {
        return lost.total;
      },
      incompatiblePublishers: [],
      take: takeKind(this.subscription),
      lastReceivedAt: undefined,
    };
    const period = options.qosCheckPeriodMs ?? 2000;
    this.qosTimer =
      period > 0
        ? node.createTimer(BigInt(period) * 1_000_000n, () => this.checkPublishers())
        : undefined;
  }

  /** Fully qualified topic name after remapping. */
  get topic(): string {
    return this.subscription.topic;
  }

  destroy(): void {
    // Cancelling alone would leave the timer in the node's list: one more per activate cycle.
    if (this.qosTimer) this.node.destroyTimer(this.qosTimer);
    this.lost.destroy();
    this.node.destroySubscription(this.subscription);
  }

  private handle(message: Buffer): void {
    const receivedAt = performance.now();
    this.counters.received++;
    this.counters.lastReceivedAt = receivedAt;
    try {
      if (this.options.transport === 'raw') {
        this.onFrame({ kind: 'raw', frame: decodeImage(message), receivedAt });
      } else {
        this.onFrame({ kind: 'compressed', frame: decodeCompressedImage(message), receivedAt });
      }
      framePacer.received(message.length);
    } catch (e) {
      if (!(e instanceof FrameError)) throw e;
      this.counters.rejected++;
      this.counters.rejectedByCode[e.code] = (this.counters.rejectedByCode[e.code] ?? 0) + 1;
      this.counters.lastError = e.message;
      this.onReject(e);
    }
  }

  /** Finds publishers whose QoS offer cannot satisfy our request; DDS would just never match them. */
  checkPublishers(): string[] {
    const request: EndpointQos = requestedQos(this.options.qos);
    const found: string[] = [];
    for (const info of this.node.getPublishersInfoByTopic(this.topic, false) as PublisherInfo[]) {
      const offer = info.qos_profile;
      const why = incompatibility(
        { reliability: Number(offer.reliability), durability: Number(offer.durability) },
        request,
      );
      if (why === undefined) continue;
      const who = `${info.node_namespace.replace(/\/$/, '')}/${info.node_name}`;
      found.push(`${who}: ${why}`);
      if (!this.reportedPublishers.has(who)) {
        this.reportedPublishers.add(who);
        this.node.getLogger().warn(`incompatible publisher on ${this.topic}: ${who}: ${why}`);
      }
    }
    this.counters.incompatiblePublishers = found;
    return found;
  }
}

interface PublisherInfo {
  node_name: string;
  node_namespace: string;
  qos_profile: { reliability: number | string; durability: number | string };
}

function requestedQos(name: QosName): EndpointQos {
  const VOLATILE = 2;
  return { reliability: name === 'sensor_data' ? 2 : 1, durability: VOLATILE };
}
