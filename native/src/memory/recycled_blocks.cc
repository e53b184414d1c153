#include "memory/recycled_blocks.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace htp {
namespace {
constexpr size_t kLeastKept = 64u << 10;
}  // namespace

struct RecycledBlocks::State {
  explicit State(size_t kept_max) : kept_max(kept_max) {}
  const size_t kept_max;
  std::mutex mutex;
  std::vector<Block> free;
  size_t kept = 0;
  double fresh = 0, reused = 0;
};

RecycledBlocks::RecycledBlocks(size_t kept_bytes) : state_(new State(kept_bytes)) {}

void* RecycledBlocks::Take(size_t size, bool zeroed) {
  State& s = *state_;
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (size_t i = s.free.size(); i-- > 0;) {
      if (s.free[i].size != size) continue;
      p = s.free[i].data;
      s.free[i] = s.free.back();
      s.free.pop_back();
      s.kept -= size;
      ++s.reused;
      break;
    }
    if (p == nullptr) ++s.fresh;
  }
  if (p == nullptr) return zeroed ? std::calloc(size, 1) : std::malloc(size);
  if (zeroed) std::memset(p, 0, size);
  return p;
}

void RecycledBlocks::Give(void* p, size_t size) {
  if (size < kLeastKept) {
    std::free(p);
    return;
  }
  State& s = *state_;
  std::vector<void*> dropped;
  bool kept = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (size_t i = 0; s.kept + size > s.kept_max && i < s.free.size();) {
      if (s.free[i].size == size) {
        ++i;
        continue;
      }
      dropped.push_back(s.free[i].data);
      s.kept -= s.free[i].size;
      s.free.erase(s.free.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (s.kept + size <= s.kept_max) {
      s.free.push_back(Block{p, size});
      s.kept += size;
      kept = true;
    }
  }
  for (void* q : dropped) std::free(q);
  if (!kept) std::free(p);
}

PoolStats RecycledBlocks::Stats() {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  PoolStats out;
  out.fresh = s.fresh;
  out.reused = s.reused;
  out.kept_bytes = s.kept;
  for (const Block& b : s.free) out.kept_sizes.push_back(b.size);
  return out;
}

RecycledBlocks& LabelImageBlocks() {
  static RecycledBlocks* pool = new RecycledBlocks(8u << 20);
  return *pool;
}

RecycledBlocks& OutputBlocks() {
  static RecycledBlocks* pool = new RecycledBlocks(32u << 20);
  return *pool;
}

RecycledBuffer::RecycledBuffer(RecycledBlocks& pool, size_t size) : pool_(&pool), size_(size) {
  data_ = pool.Take(size, false);
  if (data_ == nullptr) throw std::bad_alloc();
}

RecycledBuffer::RecycledBuffer(RecycledBuffer&& o) noexcept : pool_(o.pool_), data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
}

RecycledBuffer& RecycledBuffer::operator=(RecycledBuffer&& o) noexcept {
  if (this != &o) {
    Release();
    pool_ = o.pool_;
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
  }
  return *this;
}

RecycledBuffer::~RecycledBuffer() { Release(); }

void RecycledBuffer::Release() {
  if (data_ != nullptr) pool_->Give(data_, size_);
  data_ = nullptr;
}

}  // namespace htp
