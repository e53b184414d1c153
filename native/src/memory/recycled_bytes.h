// Zero-filled byte arrays whose memory is kept for the next request of the same size once V8
// collects them (recycled_blocks.h). A label image per frame (640x480: 307 KB, above the mmap
// threshold that malloc_tuning.cc fixes) otherwise gets a fresh mapping every frame, and the
// kernel zeroes and faults in each of its 75 pages as the remap writes them.
#pragma once
#include <napi.h>

namespace htp {

// zeroedBytes(size: number): Uint8Array of `size` zero bytes (1 <= size <= 256 MiB). Its memory
// returns to a small pool when the array is collected (blocks of 64 KiB and more, at most 8 MiB;
// a block that does not fit makes room by dropping blocks of other sizes, else it is freed).
Napi::Value ZeroedBytes(const Napi::CallbackInfo& info);

// zeroedBytesStats(): {fresh, reused, keptBytes, keptSizes}: arrays made from new memory and from
// the pool since the addon loaded, the bytes the pool holds now and the size of each block.
Napi::Value ZeroedBytesStats(const Napi::CallbackInfo& info);

// outputBlocksStats(): the same figures for the pool of run outputs copied out of ONNX Runtime's
// arena (session_core.h).
Napi::Value OutputBlocksStats(const Napi::CallbackInfo& info);

}  // namespace htp
