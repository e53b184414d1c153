// How the addon tunes glibc's allocator for a long-running process that loads models now and then
// and takes camera frames all the time. No-ops elsewhere (musl, macOS) and for each setting whose
// MALLOC_* environment variable the user set.
#pragma once

namespace htp {

// At addon load, before any session exists.
void TuneMalloc();

// The two glibc thresholds TuneMalloc fixed, for code that must put them back after changing
// them for a moment (the rclnodejs take window, see docs/engine.md). Not fixed (the user set
// MALLOC_MMAP_THRESHOLD_ or MALLOC_TRIM_THRESHOLD_, or not glibc): fixed = false.
struct MallocThresholds {
  bool fixed = false;
  int mmap_threshold = 0;
  int trim_threshold = 0;
};
MallocThresholds FixedMallocThresholds();

}  // namespace htp
