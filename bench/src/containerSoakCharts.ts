/**
 * bench:soak --container's charts: the container's RSS, native memory and JS heap over the run,
 * and native memory by what holds it (memoryBreakdown.ts), which says where growth comes from.
 */
import { lineChartSvg, LineSeries } from './lineChartSvg';
import type { MemoryBreakdown } from './memoryBreakdown';

export interface ChartedSample extends MemoryBreakdown {
  readonly t_s: number;
  readonly rss_mb: number;
  readonly js_heap_mb: number;
  readonly native_mb: number;
}

export interface ChartContext {
  readonly resolution: string;
  readonly rateHz: number;
  readonly cpuPercentMedian: number;
  readonly warmupS: number;
}

const series = (
  label: string,
  samples: readonly ChartedSample[],
  value: (s: ChartedSample) => number,
): LineSeries => ({
  label,
  points: samples.filter((s) => Number.isFinite(value(s))).map((s) => [s.t_s, value(s)] as const),
});

/** RSS, native memory (RSS - JS heap) and the JS heap over the run. */
export function memoryChartSvg(samples: readonly ChartedSample[], c: ChartContext): string {
  return lineChartSvg(
    [
      series('container RSS (MB)', samples, (s) => s.rss_mb),
      series('native: RSS - JS heap (MB)', samples, (s) => s.native_mb),
      series('JS heap (MB)', samples, (s) => s.js_heap_mb),
    ],
    {
      title: `perception_container (3 pipelines, CPU), ${c.resolution} at ${c.rateHz} Hz, ${c.cpuPercentMedian} % CPU`,
      xLabel: 'seconds',
      yLabel: 'MB',
      band: { from: 0, to: c.warmupS, label: 'warm-up' },
    },
  );
}

/**
 * What holds the native memory: ONNX Runtime's arenas (reserved), malloc's blocks in use and those
 * it keeps freed, Fast DDS's shared memory, file pages (code, mapped libraries) and JS buffers.
 */
export function breakdownChartSvg(samples: readonly ChartedSample[], c: ChartContext): string {
  return lineChartSvg(
    [
      series('anonymous RSS (MB)', samples, (s) => s.rss_anon_mb),
      series('ORT arenas reserved', samples, (s) => s.arena_reserved_mb),
      series('malloc in use', samples, (s) => s.malloc_in_use_mb),
      series('malloc kept free', samples, (s) => s.malloc_free_mb),
      series('file-backed RSS', samples, (s) => s.rss_file_mb),
      series('shared memory RSS', samples, (s) => s.rss_shmem_mb),
      series('JS array buffers', samples, (s) => s.array_buffers_mb),
    ],
    {
      title: `perception_container native memory by holder, ${c.resolution} at ${c.rateHz} Hz`,
      xLabel: 'seconds',
      yLabel: 'MB',
      band: { from: 0, to: c.warmupS, label: 'warm-up' },
    },
  );
}
