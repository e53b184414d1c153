// Sync N-API helpers for the task heads' per-frame loops over large outputs, run on the calling
// (main) thread: the peak of each heatmap plane (HRNet) and the nearest-label resize of a label
// map to the camera's size (DeepLab). The heads keep equivalent TypeScript loops; the pipeline
// hands these in (src/engine/outputKernels.ts). Bad arguments throw a TypeError or RangeError.
#pragma once
#include <napi.h>

namespace htp {

// planePeaks(data: Float32Array, planeSize: number): Float64Array [value0, index0, value1, ...]
// per consecutive plane: the largest value (NaN never wins) and its first index; -Infinity and 0
// for a plane without one.
Napi::Value PlanePeaks(const Napi::CallbackInfo& info);

// remapLabels(grid: Uint8Array, gridWidth: number, rows: Int32Array, cols: Int32Array,
//             out: Uint8Array): out[v * cols.length + u] = grid[rows[v] * gridWidth + cols[u]]
// where both are >= 0; other pixels are left as they are.
Napi::Value RemapLabels(const Napi::CallbackInfo& info);

// yoloBestClasses(data: Float32Array, numAnchors, numClasses, channelStride, anchorStride,
//                 threshold: number, anchors: Int32Array, classes: Int32Array,
//                 scores: Float32Array): number
// For an Ultralytics YOLO tensor (value(ch, a) = data[ch * channelStride + a * anchorStride], class
// scores in channels 4..): every anchor whose best class score is above `threshold`, in anchor
// order: its index, its best class (the first on ties; NaN never wins) and that score, written to
// the first entries of the three arrays; returns how many.
Napi::Value YoloBestClasses(const Napi::CallbackInfo& info);

}  // namespace htp
