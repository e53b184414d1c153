import type * as Rclnodejs from 'rclnodejs';
import { type Lookup, stampToNs, TransformBuffer } from '../transforms/transformBuffer';
import { BadInputWarnings } from './badInputWarnings';
import type { RosTime } from './rosHeader';

export interface TransformCounters {
  /** Transforms taken into the buffer from /tf and /tf_static. */
  readonly received: number;
  /** Transforms refused (a zero quaternion, a frame to itself, data older than the cache...). */
  readonly refused: number;
  readonly refusedLast: string;
}

/** A pipeline's hold on the process's transform tree: lookups until released. */
export interface TransformLease {
  readonly counters: TransformCounters;
  /** `source` (an image's frame_id) into `target` at `stamp`, as tf2's lookupTransform. */
  lookup(target: string, source: string, stamp: RosTime): Lookup;
  release(): void;
}

/** tf2_ros' listener depths: 100 transforms kept per topic while the executor catches up. */
const TF_DEPTH = 100;

type TFMessage = Rclnodejs.tf2_msgs.msg.TFMessage;

/**
 * /tf and /tf_static into one TransformBuffer, with tf2_ros' listener QoS: reliable, the static
 * topic transient local (a static broadcaster publishes once, latched). rclnodejs has no tf2, and
 * TFMessage is small and rare next to camera frames, so it is taken as a plain message.
 */
class TransformListener {
  readonly buffer = new TransformBuffer();
  private received = 0;
  private refused = 0;
  private refusedLast = '';
  private readonly subscriptions: Rclnodejs.Subscription[];
  private readonly warnings: BadInputWarnings;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
  ) {
    this.warnings = new BadInputWarnings((l) => node.getLogger().warn(l));
    const dynamicQos = new rcl.QoS(
      rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      TF_DEPTH,
      rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
      rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
    );
    const staticQos = new rcl.QoS(
      rcl.QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      TF_DEPTH,
      rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
      rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL,
    );
    this.subscriptions = [
      node.createSubscription('tf2_msgs/msg/TFMessage', '/tf', { qos: dynamicQos }, (m: unknown) =>
        this.take(m as TFMessage, false),
      ),
      node.createSubscription(
        'tf2_msgs/msg/TFMessage',
        '/tf_static',
        { qos: staticQos },
        (m: unknown) => this.take(m as TFMessage, true),
      ),
    ];
  }

  get counters(): TransformCounters {
    return { received: this.received, refused: this.refused, refusedLast: this.refusedLast };
  }

  private take(m: TFMessage, isStatic: boolean): void {
    for (const t of m.transforms) {
      const refused = this.buffer.setTransform(
        {
          parent: t.header.frame_id,
          child: t.child_frame_id,
          stampNs: stampToNs(t.header.stamp),
          transform: t.transform,
        },
        isStatic,
      );
      if (refused) {
        this.refused++;
        this.refusedLast = refused;
        this.warnings.report(
          'refused',
          `transform refused on ${isStatic ? '/tf_static' : '/tf'}: ${refused}`,
        );
      } else {
        this.received++;
      }
    }
  }

  destroy(): void {
    for (const s of this.subscriptions) this.node.destroySubscription(s);
  }
}

/**
 * One transform listener per process, however many pipelines look transforms up (as CameraHub
 * shares cameras): it lives on the node of the first pipeline that asked and goes when the last
 * one releases it.
 */
export class TransformHub {
  private listener: TransformListener | undefined;
  private users = 0;

  constructor(private readonly rcl: typeof Rclnodejs) {}

  attach(node: Rclnodejs.Node): TransformLease {
    const l = (this.listener ??= new TransformListener(this.rcl, node));
    this.users++;
    let released = false;
    return {
      get counters() {
        return l.counters;
      },
      lookup: (target, source, stamp) => l.buffer.lookup(target, source, stampToNs(stamp)),
      release: () => {
        if (released) return;
        released = true;
        if (--this.users === 0) {
          l.destroy();
          this.listener = undefined;
        }
      },
    };
  }
}
