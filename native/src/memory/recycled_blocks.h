// Memory blocks kept for the next request of the same size once their owner frees them: large
// per-frame arrays (above the 256 KB mmap threshold malloc_tuning.cc fixes) otherwise get a fresh
// mapping every frame, and the kernel zeroes and faults in each of its pages as it is written.
// Thread-safe: workers take blocks, V8's finalizers on the JS thread give them back.
#pragma once
#include <cstddef>
#include <vector>

namespace htp {

// What a pool made and holds, read in one lock.
struct PoolStats {
  double fresh = 0, reused = 0;
  size_t kept_bytes = 0;
  std::vector<size_t> kept_sizes;
};

class RecycledBlocks {
 public:
  // Keeps at most `kept_bytes` of freed blocks of 64 KiB and more; smaller ones come from malloc's
  // heap, reused without faults anyway.
  explicit RecycledBlocks(size_t kept_bytes);
  // A block of `size` bytes, zero-filled if `zeroed`; nullptr when memory is exhausted.
  void* Take(size_t size, bool zeroed);
  // A block that does not fit makes room by dropping blocks of other sizes (after a resolution
  // change the pool holds the new size's blocks, not the old ones for ever), else it is freed.
  void Give(void* p, size_t size);
  PoolStats Stats();

 private:
  struct Block {
    void* data;
    size_t size;
  };
  struct State;
  State* state_;  // never destroyed: V8 may run the last finalizers after static destructors
};

// The label images' pool (zeroedBytes, recycled_bytes.h): 8 MiB, tens of 640x480 maps waiting for
// a scavenge between frames.
RecycledBlocks& LabelImageBlocks();
// Run outputs copied out of ONNX Runtime's arena (session_core.h): 32 MiB, the outputs of the
// frames between two scavenges (yolo11n: 2.7 MB each).
RecycledBlocks& OutputBlocks();

// One block of a pool, given back when destroyed; movable, not copyable.
class RecycledBuffer {
 public:
  RecycledBuffer() = default;
  // Throws std::bad_alloc when the memory is not there.
  RecycledBuffer(RecycledBlocks& pool, size_t size);
  RecycledBuffer(RecycledBuffer&& o) noexcept;
  RecycledBuffer& operator=(RecycledBuffer&& o) noexcept;
  RecycledBuffer(const RecycledBuffer&) = delete;
  RecycledBuffer& operator=(const RecycledBuffer&) = delete;
  ~RecycledBuffer();
  void* data() const { return data_; }

 private:
  void Release();
  RecycledBlocks* pool_ = nullptr;
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace htp
