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
  /** A part of the node with a status of its own (a camera): named `<node>/<sub>`. */
  readonly sub?: string;
}

/**
 * Publishes this node's DiagnosticStatus (and one per part with a status of its own, a camera of
 * a multi-camera node) on /diagnostics at a fixed period, built by the node's own report function
 * so the figures always come from the live counters.
 */
export class DiagnosticsPublisher {
  private readonly publisher: Rclnodejs.Publisher<'diagnostic_msgs/msg/DiagnosticArray'>;
  private readonly timer: Rclnodejs.Timer;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    private readonly report: () => DiagnosticReport | readonly DiagnosticReport[],
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
    const made = this.report();
    const reports: readonly DiagnosticReport[] = Array.isArray(made) ? made : [made];
    const node = `${this.node.namespace().replace(/\/$/, '')}/${this.node.name()}`;
    const bytes = encodeDiagnosticArray(
      { stamp: stampNow(this.node), frameId: '' },
      reports.map((r) => {
        const name = r.sub ? `${node}/${r.sub}` : node;
        return {
          level: r.level,
          name: `htp_perception: ${name}`,
          message: r.message,
          hardwareId: name,
          values: Object.entries(r.values).map(([key, value]) => [key, String(value)]),
        };
      }),
    );
    this.publisher.publish(bytes);
  }

  destroy(): void {
    this.timer.cancel();
    this.node.destroyPublisher(this.publisher);
  }
}
