import type * as Rclnodejs from 'rclnodejs';
import { DepthCounters, DepthInput, DepthIntake, DepthMatch } from './depthIntake';
import type { RosTime } from './rosHeader';
import { BadInputWarnings } from './badInputWarnings';

/** A pipeline's hold on a depth camera: pairing until released. */
export interface DepthLease {
  readonly depthTopic: string;
  readonly cameraInfoTopic: string;
  readonly counters: DepthCounters;
  match(stamp: RosTime, slopMs: number): DepthMatch;
  release(): void;
}

interface Shared {
  readonly intake: DepthIntake;
  users: number;
}

/**
 * One depth and one CameraInfo subscription per topic pair per process, however many pipelines
 * use them (as CameraHub does for colour): they live on the node of the first pipeline that
 * asked and go when the last one releases them.
 */
export class DepthHub {
  private readonly intakes = new Map<string, Shared>();

  constructor(private readonly rcl: typeof Rclnodejs) {}

  attach(node: Rclnodejs.Node, input: DepthInput): DepthLease {
    // As image_transport names a transport's topic: the base topic resolved (namespace,
    // remapping), then the transport's suffix; `-r depth:=/cam/depth` serves both transports.
    const depthBase = node.resolveTopicName(input.depthTopic);
    const depthTopic =
      input.depthTransport === 'compressedDepth' ? `${depthBase}/compressedDepth` : depthBase;
    const cameraInfoTopic = node.resolveTopicName(input.cameraInfoTopic);
    const key = `${depthTopic} ${input.depthTransport} ${cameraInfoTopic} ${input.qos}`;
    let shared = this.intakes.get(key);
    if (!shared) {
      // One log throttle per topic: a flood of bad depth frames must not hide a bad CameraInfo.
      const warn = (l: string) => node.getLogger().warn(l);
      const warnings = {
        depth: new BadInputWarnings(warn),
        camera_info: new BadInputWarnings(warn),
      };
      shared = {
        users: 0,
        intake: new DepthIntake(
          this.rcl,
          node,
          { ...input, depthTopic, cameraInfoTopic },
          (which, code, message) => warnings[which].report(code, message),
        ),
      };
      this.intakes.set(key, shared);
    }
    const s = shared;
    s.users++;
    let released = false;
    return {
      depthTopic,
      cameraInfoTopic,
      counters: s.intake.counters,
      match: (stamp, slopMs) => s.intake.match(stamp, slopMs),
      release: () => {
        if (released) return;
        released = true;
        if (--s.users === 0) {
          s.intake.destroy();
          this.intakes.delete(key);
        }
      },
    };
  }
}
