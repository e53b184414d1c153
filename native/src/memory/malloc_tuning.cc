#include "memory/malloc_tuning.h"

#include <cstdlib>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace htp {
namespace {

// glibc raises its mmap threshold each time a large block is freed, so after the first session is
// disposed, model weights and tensors of later sessions come from the heap and fragment it: RSS
// crept up ~0.5 MB per configure/cleanup cycle (engine alone: 165 -> 207 MB over 100 cycles; flat
// at ~157 MB with a fixed threshold). A fixed threshold keeps large blocks in their own mappings,
// returned to the system when freed.
// The price: camera frames (the serialized image rmw takes, the Buffer rclnodejs copies it into)
// get a fresh mapping, and its page faults, per frame. An 8 MB threshold measured 1280x720 frames
// reaching the node ~4 ms sooner (bench:e2e) but the INT8 detector ~30 MB larger at 30 Hz
// (bench:soak: 255 vs 224 MB) and the lifecycle endurance test creeping 4-6 % over 50 cycles, so
// memory wins here; MALLOC_MMAP_THRESHOLD_=8388608 in a node's environment chooses latency.
// Since then the rclnodejs take (our patch: the buffer pool, then the take window, which raises
// both thresholds only while rmw copies a message) no longer pays that price for camera frames.
constexpr int kMmapThreshold = 256 * 1024;
// glibc's own default, fixed explicitly so that it is known: whoever raises it for a moment (the
// rclnodejs take window) must put back exactly this.
constexpr int kTrimThreshold = 128 * 1024;
// glibc gives threads that allocate at once arenas of their own, up to 8 per core, each keeping
// its freed blocks: the libuv workers', ONNX Runtime's and the DDS threads spread a node's memory
// over several. Two bound it (bench:soak, INT8 YOLOv8s at 30 Hz: 6-8 MB less RSS, same rate).
constexpr int kArenaMax = 2;

#ifdef __GLIBC__
bool UserChoseThresholds() {
  return std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr ||
         std::getenv("MALLOC_TRIM_THRESHOLD_") != nullptr;
}
#endif

}  // namespace

void TuneMalloc() {
#ifdef __GLIBC__
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, kArenaMax);
#endif
}

MallocThresholds FixedMallocThresholds() {
  MallocThresholds t;
#ifdef __GLIBC__
  if (UserChoseThresholds()) return t;
  t.fixed = true;
  t.mmap_threshold = kMmapThreshold;
  t.trim_threshold = kTrimThreshold;
#endif
  return t;
}

}  // namespace htp
