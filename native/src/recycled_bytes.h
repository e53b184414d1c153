// Zero-filled byte arrays whose memory is kept for the next request of the same size once V8
// collects them. A label image per frame (640x480: 307 KB, above the mmap threshold that
// malloc_tuning.cc fixes) otherwise gets a fresh mapping every frame, and the kernel zeroes and
// faults in each of its 75 pages as the remap writes them.
#pragma once
#include <napi.h>

namespace htp {

// zeroedBytes(size: number): Uint8Array of `size` zero bytes (1 <= size <= 256 MiB). Its memory
// returns to a small pool when the array is collected (at most 8 MiB kept, the rest freed).
Napi::Value ZeroedBytes(const Napi::CallbackInfo& info);

}  // namespace htp
