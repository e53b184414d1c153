/**
 * The badge of the annotated stream: which processor ran the model, the result rate and the
 * latency from the image stamp to the results, e.g. `HTP | 14.8 fps | 62 ms` or
 * `HTP partial 402/431 nodes | 9.1 fps | 120 ms`: what a teleop operator needs at a glance.
 */

/** What runs on the HTP: ONNX Runtime's QNN provider, an ExecuTorch program's QNN delegate. */
const HTP_PROVIDERS = ['QNNExecutionProvider', 'QnnBackend'];

/**
 * `CPU`, `HTP`, or `HTP partial <on HTP>/<all> nodes`, from the runtime's placement (ONNX
 * Runtime: execution provider -> graph nodes; ExecuTorch: backend or kernels -> calls). With
 * provider gpu the QNN provider's nodes are on the Adreno GPU: `GPU`, `GPU partial ...`.
 */
export function processorLabel(
  nodesByProvider: Readonly<Record<string, number>>,
  requested: string = 'htp',
): string {
  const total = Object.values(nodesByProvider).reduce((s, n) => s + n, 0);
  const accelerated = HTP_PROVIDERS.reduce((s, p) => s + (nodesByProvider[p] ?? 0), 0);
  const name = requested === 'gpu' ? 'GPU' : 'HTP';
  if (accelerated === 0) return 'CPU';
  if (accelerated === total) return name;
  return `${name} partial ${accelerated}/${total} nodes`;
}

/** The processors of a node's models, joined when they differ (a detector plus a pose model). */
export function processorsLabel(
  placements: readonly {
    readonly nodesByProvider: Readonly<Record<string, number>>;
    readonly requested: string;
  }[],
): string {
  return [...new Set(placements.map((p) => processorLabel(p.nodesByProvider, p.requested)))].join(
    ' + ',
  );
}

/** Result rate and latency over a short window, fed once per published result. */
export class StreamFigures {
  private readonly times: number[] = [];
  private latency = NaN;

  constructor(private readonly windowMs = 2000) {}

  /** `now` in ms (monotonic); `latencyMs` from the image stamp to this result's publication. */
  add(now: number, latencyMs: number): void {
    this.times.push(now);
    while (this.times.length > 2 && now - this.times[0]! > this.windowMs) this.times.shift();
    // Smoothed so the figure is readable at camera rates.
    this.latency = Number.isFinite(this.latency) ? 0.8 * this.latency + 0.2 * latencyMs : latencyMs;
  }

  get fps(): number {
    const n = this.times.length;
    if (n < 2) return 0;
    return ((n - 1) * 1000) / (this.times[n - 1]! - this.times[0]!);
  }

  get latencyMs(): number {
    return this.latency;
  }

  badge(processor: string): string {
    const lat = Number.isFinite(this.latency) ? `${Math.round(this.latency)} ms` : '- ms';
    return `${processor} | ${this.fps.toFixed(1)} fps | ${lat}`;
  }
}
