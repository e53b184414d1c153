import type * as Rclnodejs from 'rclnodejs';
import { ImageIntake, IntakeFrame } from '../ros/imageIntake';
import { encodeImage } from '../ros/codecs/imageCodec';
import { encodeCompressedImage } from '../ros/codecs/compressedImageCodec';
import { createOutputPublisher, IMAGE_QOS } from '../ros/publisherQos';
import { declareDescribedParameters } from '../ros/declareDescribedParameters';
import { tableDescriptions } from '../config/parameterTable';
import {
  parsePassThroughConfig,
  PASS_THROUGH_DEFAULTS,
  PASS_THROUGH_PARAMETERS,
  PassThroughConfig,
} from '../config/passThroughConfig';
import { LatestFrameMailbox } from './perception/latestFrameMailbox';
import {
  DIAG_OK,
  DIAG_WARN,
  DiagnosticReport,
  DiagnosticsPublisher,
} from '../ros/diagnosticsPublisher';
import { runNodeProcess } from './process/runNodeProcess';
import { ThrottledLog } from '../ros/throttledLog';

/**
 * Proof of life for the transport: receives camera frames through the raw intake and republishes
 * them, re-encoded by our own CDR writer, on ~/image (or ~/image/compressed). The perception nodes
 * replace the republish step with inference.
 */
export class PassThroughNode {
  readonly node: Rclnodejs.Node;
  readonly intake: ImageIntake;
  readonly mailbox = new LatestFrameMailbox<IntakeFrame>();
  private readonly rawOut: Rclnodejs.Publisher<'sensor_msgs/msg/Image'> | undefined;
  private readonly compressedOut:
    Rclnodejs.Publisher<'sensor_msgs/msg/CompressedImage'> | undefined;
  private published = 0;
  private readonly badFrames: ThrottledLog;
  private loop: Promise<void> | undefined;
  readonly diagnosticsPublisher: DiagnosticsPublisher;
  private lastReport = { at: performance.now(), received: 0, rejected: 0 };

  constructor(rcl: typeof Rclnodejs, name = 'pass_through') {
    this.node = new rcl.Node(name);
    this.badFrames = new ThrottledLog((l) => this.node.getLogger().warn(l));
    const config: PassThroughConfig = parsePassThroughConfig(
      declareDescribedParameters(rcl, this.node, PASS_THROUGH_PARAMETERS),
    );
    // Depth 5 as before: the relay is measured for delivery, not only for the newest frame.
    const qos = { ...IMAGE_QOS, depth: 5 };
    if (config.input_transport === 'raw') {
      this.rawOut = createOutputPublisher(rcl, this.node, 'sensor_msgs/msg/Image', '~/image', qos);
    } else {
      this.compressedOut = createOutputPublisher(
        rcl,
        this.node,
        'sensor_msgs/msg/CompressedImage',
        '~/image/compressed',
        qos,
      );
    }
    this.intake = new ImageIntake(
      rcl,
      this.node,
      {
        topic: config.input_transport === 'raw' ? 'image' : 'image/compressed',
        transport: config.input_transport,
        qos: config.input_qos,
      },
      (f) => this.mailbox.post(f),
      (e) => this.badFrames.report(e.code, `dropped a bad frame: ${e.message}`),
    );
    this.diagnosticsPublisher = new DiagnosticsPublisher(rcl, this.node, () => this.diagnostics());
    if (config.log_period_s > 0) {
      this.node.createTimer(BigInt(Math.round(config.log_period_s * 1e9)), () => this.logStats());
    }
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.mailbox.close();
    await this.loop;
  }

  get stats(): { received: number; rejected: number; dropped: number; published: number } {
    const c = this.intake.counters;
    return {
      received: c.received,
      rejected: c.rejected,
      dropped: this.mailbox.dropped,
      published: this.published,
    };
  }

  private async run(): Promise<void> {
    for (;;) {
      const item = await this.mailbox.take();
      if (!item) return;
      if (item.kind === 'raw' && this.rawOut) {
        this.rawOut.publish(encodeImage(item.frame));
      } else if (item.kind === 'compressed' && this.compressedOut) {
        this.compressedOut.publish(encodeCompressedImage(item.frame));
      }
      this.published++;
    }
  }

  /** Rates are over the time since the previous report, so they describe the stream now. */
  diagnostics(): DiagnosticReport {
    const c = this.intake.counters;
    const now = performance.now();
    const dt = Math.max(1e-3, (now - this.lastReport.at) / 1000);
    const fps = (c.received - this.lastReport.received) / dt;
    const newRejects = c.rejected - this.lastReport.rejected;
    this.lastReport = { at: now, received: c.received, rejected: c.rejected };
    let level = DIAG_OK;
    let message = `${fps.toFixed(1)} fps`;
    if (c.incompatiblePublishers.length > 0) {
      level = DIAG_WARN;
      message = `incompatible publisher: ${c.incompatiblePublishers[0]}`;
    } else if (newRejects > 0) {
      level = DIAG_WARN;
      message = `${newRejects} bad frames: ${c.lastError ?? ''}`;
    } else if (c.received === 0) {
      level = DIAG_WARN;
      message = `waiting for frames on ${this.intake.topic}`;
    }
    return {
      level,
      message,
      values: {
        topic: this.intake.topic,
        fps: fps.toFixed(2),
        received: c.received,
        rejected: c.rejected,
        rejected_by_reason: JSON.stringify(c.rejectedByCode),
        dropped_stale: this.mailbox.dropped,
        published: this.published,
      },
    };
  }

  private logStats(): void {
    const s = this.stats;
    this.node
      .getLogger()
      .info(
        `received ${s.received}, rejected ${s.rejected}, dropped ${s.dropped}, published ${s.published}`,
      );
  }
}

if (require.main === module) {
  runNodeProcess({
    name: 'pass_through',
    summary: 'republishes camera frames received through the zero-copy raw intake',
    parameters: PASS_THROUGH_DEFAULTS,
    descriptions: tableDescriptions(PASS_THROUGH_PARAMETERS),
    topics: [
      'in:  image (sensor_msgs/Image) or image/compressed (sensor_msgs/CompressedImage)',
      'out: ~/image or ~/image/compressed',
    ],
    start: async (rcl) => {
      const node = new PassThroughNode(rcl);
      node.start();
      return { nodes: [node.node], stop: () => node.stop(), destroy: () => node.node.destroy() };
    },
  });
}
