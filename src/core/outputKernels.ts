/**
 * Loops over a whole output tensor that the task heads run every frame, as functions the heads
 * take: the heads carry TypeScript versions (pure, the default) and the pipeline hands in the
 * engine addon's (src/engine/outputKernels.ts), which give the same results several times faster.
 */

/**
 * Per consecutive plane of `planeSize` values: its largest value (NaN never wins; -Infinity when
 * the plane has none) and the first index holding it (0 when none), as
 * [value0, index0, value1, index1, ...]. `data.length` must be whole planes.
 */
export type PlanePeaks = (data: Float32Array, planeSize: number) => Float64Array;

/**
 * Nearest-label resize: out[v * cols.length + u] = grid[rows[v] * gridWidth + cols[u]] where
 * rows[v] >= 0 and cols[u] >= 0 (the columns >= 0 are one run); other pixels are left as they are.
 */
export type RemapLabels = (
  grid: Uint8Array,
  gridWidth: number,
  rows: Int32Array,
  cols: Int32Array,
  out: Uint8Array,
) => void;

/**
 * Every anchor of an Ultralytics YOLO tensor (value(channel, anchor) = data[channel *
 * channelStride + anchor * anchorStride], class scores in channels 4 .. 4 + numClasses - 1) whose
 * best class score is above `threshold`, in anchor order: its index, its best class (the first on
 * ties; NaN never wins) and that score, written to the first entries of `anchors`, `classes` and
 * `scores` (each of numAnchors entries at least). Returns how many.
 */
export type YoloBestClasses = (
  data: Float32Array,
  numAnchors: number,
  numClasses: number,
  channelStride: number,
  anchorStride: number,
  threshold: number,
  anchors: Int32Array,
  classes: Int32Array,
  scores: Float32Array,
) => number;

/**
 * A zero-filled array of `size` bytes for a per-frame result (a label image). The addon's keeps
 * the memory of collected arrays for the next request of the same size; the heads' own is
 * `new Uint8Array(size)`.
 */
export type ZeroedBytes = (size: number) => Uint8Array;

export interface OutputKernels {
  readonly planePeaks: PlanePeaks;
  readonly remapLabels: RemapLabels;
  readonly yoloBestClasses: YoloBestClasses;
  readonly zeroedBytes: ZeroedBytes;
}
