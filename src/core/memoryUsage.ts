/**
 * What glibc's allocator holds for the whole process, every thread's arena (the engine addon's
 * mallocUsage(), native/src/memory/malloc_usage.h). Memory a node grows by is in use, or freed but kept
 * by malloc (fragmentation, a high-water mark), or in large blocks with mappings of their own
 * (model weights, ONNX Runtime's arenas).
 */
export interface MallocUsage {
  readonly inUseBytes: number;
  readonly freeBytes: number;
  readonly mmappedBytes: number;
}

/**
 * One session's CPU arena (ONNX Runtime's allocator for its intermediate tensors) after its last
 * run: what it reserved from malloc, what was in use, the most ever in use at once, and how often
 * it grew. An arena keeps what it reserved: its growth is a high-water mark, not a leak.
 */
export interface ArenaUsage {
  readonly reservedBytes: number;
  readonly inUseBytes: number;
  readonly peakInUseBytes: number;
  readonly extensions: number;
}
