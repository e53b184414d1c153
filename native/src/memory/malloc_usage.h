// What glibc's allocator holds for the whole process (every thread's arena), for the diagnostics
// and bench:soak: memory a node grows by is either in use, or freed but kept by malloc
// (fragmentation, a high-water mark), or in blocks of their own mappings. Off glibc, and under
// AddressSanitizer (its own allocator): unknown.
#pragma once
#include <napi.h>

#include <cstdint>

namespace htp {

struct MallocUsage {
  bool known = false;
  int64_t in_use_bytes = 0;    // allocated from the arenas and not freed
  int64_t free_bytes = 0;      // freed into the arenas and kept there
  int64_t mmapped_bytes = 0;   // blocks above the mmap threshold, each in its own mapping
};

// Walks every arena under its lock: microseconds to a millisecond, so once a second, not per frame.
MallocUsage ReadMallocUsage();

// mallocUsage() -> {inUseBytes, freeBytes, mmappedBytes} or null
Napi::Value MallocUsageJs(const Napi::CallbackInfo& info);

}  // namespace htp
