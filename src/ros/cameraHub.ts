import type * as Rclnodejs from 'rclnodejs';
import { CameraFrame, cameraFrame } from './cameraFrame';
import { ImageIntake, InputTransport, IntakeCounters } from './imageIntake';
import type { QosName } from './qosProfile';
import { BadInputWarnings } from './badInputWarnings';

export interface CameraInput {
  /** Topic name as the node sees it (relative names and remapping resolved by that node). */
  readonly topic: string;
  readonly transport: InputTransport;
  readonly qos: QosName;
}

/** A pipeline's hold on a camera: frames flow to its consumer until released. */
export interface CameraLease {
  /** Fully qualified topic after remapping. */
  readonly topic: string;
  /** Counters of the shared subscription (every pipeline on it sees the same). */
  readonly counters: IntakeCounters;
  release(): void;
}

interface SharedIntake {
  readonly intake: ImageIntake;
  readonly consumers: Set<(frame: CameraFrame) => void>;
  sequence: number;
}

/**
 * One subscription and one decode per camera topic per process, however many pipelines use it:
 * every pipeline on the topic gets the same CameraFrame. The subscription lives on the node of the
 * first pipeline that asked, and goes when the last one releases it. Bad frames are logged by that
 * node, at most one line per topic per 5 s (BadInputWarnings).
 */
export class CameraHub {
  private readonly intakes = new Map<string, SharedIntake>();

  constructor(private readonly rcl: typeof Rclnodejs) {}

  attach(
    node: Rclnodejs.Node,
    input: CameraInput,
    consumer: (frame: CameraFrame) => void,
  ): CameraLease {
    const topic = node.resolveTopicName(input.topic);
    const key = `${topic} ${input.transport} ${input.qos}`;
    let shared = this.intakes.get(key);
    if (!shared) {
      const warnings = new BadInputWarnings((l) => node.getLogger().warn(l));
      const consumers = new Set<(frame: CameraFrame) => void>();
      const created: SharedIntake = {
        consumers,
        sequence: 0,
        intake: new ImageIntake(
          this.rcl,
          node,
          { topic, transport: input.transport, qos: input.qos },
          (item) => {
            const frame = cameraFrame(item, ++created.sequence);
            for (const c of consumers) c(frame);
          },
          (e) => warnings.report(e.code, `dropped a bad frame on ${topic}: ${e.message}`),
        ),
      };
      shared = created;
      this.intakes.set(key, shared);
    }
    const s = shared;
    s.consumers.add(consumer);
    let released = false;
    return {
      topic,
      counters: s.intake.counters,
      release: () => {
        if (released) return;
        released = true;
        s.consumers.delete(consumer);
        if (s.consumers.size === 0) {
          s.intake.destroy();
          this.intakes.delete(key);
        }
      },
    };
  }

  /** Topics subscribed now (diagnostics and tests). */
  get subscribedTopics(): string[] {
    return [...this.intakes.keys()];
  }
}
