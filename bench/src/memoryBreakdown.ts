/**
 * A process's memory by what holds it, once a second in bench:soak --container: where RSS growth
 * comes from. From /proc (anonymous, file-backed and shared pages: Fast DDS's shared-memory
 * segments are shared) and from the node's diagnostics (malloc's in-use, kept-free and mmapped
 * bytes, ONNX Runtime's arenas, JS buffers). MB; NaN where a figure is not known.
 */
export interface MemoryBreakdown {
  readonly rss_anon_mb: number;
  readonly rss_file_mb: number;
  readonly rss_shmem_mb: number;
  readonly malloc_in_use_mb: number;
  readonly malloc_free_mb: number;
  readonly malloc_mmapped_mb: number;
  readonly arena_reserved_mb: number;
  readonly array_buffers_mb: number;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** RssAnon, RssFile and RssShmem of a /proc/<pid>/status text, in MB. */
export function rssKindsOf(
  status: string,
): Pick<MemoryBreakdown, 'rss_anon_mb' | 'rss_file_mb' | 'rss_shmem_mb'> {
  const kb = (key: string): number => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? round2(Number(m[1]) / 1024) : NaN;
  };
  return { rss_anon_mb: kb('RssAnon'), rss_file_mb: kb('RssFile'), rss_shmem_mb: kb('RssShmem') };
}

/**
 * The malloc and buffer figures of one node's diagnostics values (process-wide, the same in every
 * node of a container) and the arenas summed over the nodes given.
 */
export function diagnosticsMemory(
  processValues: ReadonlyMap<string, string> | undefined,
  nodes: readonly (ReadonlyMap<string, string> | undefined)[],
): Omit<MemoryBreakdown, 'rss_anon_mb' | 'rss_file_mb' | 'rss_shmem_mb'> {
  const num = (v: string | undefined): number => (v === undefined || v === '' ? NaN : Number(v));
  return {
    malloc_in_use_mb: num(processValues?.get('process_malloc_in_use_mb')),
    malloc_free_mb: num(processValues?.get('process_malloc_free_mb')),
    malloc_mmapped_mb: num(processValues?.get('process_malloc_mmapped_mb')),
    arena_reserved_mb: round2(
      nodes.reduce((t, n) => t + num(n?.get('engine_arena_reserved_mb')), 0),
    ),
    array_buffers_mb: num(processValues?.get('process_array_buffers_mb')),
  };
}
