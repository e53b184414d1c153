import type * as Rclnodejs from 'rclnodejs';
import { encodeDiagnosticArray } from './codecs/diagnosticArrayCodec';
import { createOutputPublisher, RESULT_QOS } from './publisherQos';
import { stampNow } from './rosHeader';

/** diagnostic_msgs/DiagnosticStatus levels. */
export const DIAG_OK = 0;
export const DIAG_WARN = 1;
export const DIAG_ERROR = 2;

export interface DiagnosticReport {
  readonly level: number;
  readonly message: string;
  /** Shown as key/value pairs in rqt_runtime_monitor / Foxglove; values are strings by design. */
  readonly values: Readonly<Record<string, string | number | boolean>>;
}

/**
 * Publishes one DiagnosticStatus for this node on /diagnostics at a fixed period, built by the
 * node's own report function so the figures always come from the live counters.
 */
export class DiagnosticsPublisher {
  private readonly publisher: Rclnodejs.Publisher<'diagnostic_msgs/msg/DiagnosticArray'>;
  private readonly timer: Rclnodejs.Timer;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    private readonly report: () => DiagnosticReport,
    periodS = 1.0,
  ) {
    this.publisher = createOutputPublisher(
      rcl,
      node,
      'diagnostic_msgs/msg/DiagnosticArray',
      '/diagnostics',
      RESULT_QOS,
    );
    this.timer = node.createTimer(BigInt(Math.round(periodS * 1e9)), () => this.publish());
  }

  publish(): void {
    const r = this.report();
    const name = `${this.node.namespace().replace(/\/$/, '')}/${this.node.name()}`;
    const bytes = encodeDiagnosticArray({ stamp: stampNow(this.node), frameId: '' }, [
      {
        level: r.level,
        name: `htp_perception: ${name}`,
        message: r.message,
        hardwareId: name,
        values: Object.entries(r.values).map(([key, value]) => [key, String(value)]),
      },
    ]);
    this.publisher.publish(bytes);
  }

  destroy(): void {
    this.timer.cancel();
    this.node.destroyPublisher(this.publisher);
  }
}
