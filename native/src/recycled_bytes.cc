#include "recycled_bytes.h"

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace htp {
namespace {

// Enough for the label images that wait for a scavenge between frames (tens at 30 Hz), small
// beside a node's RSS; blocks beyond it are freed.
constexpr size_t kKeptBytes = 8u << 20;
// Smaller arrays come from malloc's heap, reused without faults anyway; not keeping them bounds
// the pool's list (128 blocks at the most).
constexpr size_t kLeastKept = 64u << 10;
constexpr double kMaxSize = 256.0 * 1024 * 1024;

// What the pool made and holds, read in one lock.
struct PoolStats {
  double fresh = 0, reused = 0;
  size_t kept_bytes = 0;
  std::vector<size_t> kept_sizes;
};

struct Block {
  void* data;
  size_t size;
};

class Pool {
 public:
  void* Take(size_t size) {
    void* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = free_.size(); i-- > 0;) {
        if (free_[i].size != size) continue;
        p = free_[i].data;
        free_[i] = free_.back();
        free_.pop_back();
        kept_ -= size;
        ++reused_;
        break;
      }
      if (p == nullptr) ++fresh_;
    }
    if (p == nullptr) return std::calloc(size, 1);
    std::memset(p, 0, size);
    return p;
  }

  PoolStats Stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    PoolStats s;
    s.fresh = fresh_;
    s.reused = reused_;
    s.kept_bytes = kept_;
    for (const Block& b : free_) s.kept_sizes.push_back(b.size);
    return s;
  }

  // Blocks of other sizes make room for this one: after a resolution change the pool holds the
  // new size's blocks, not the old ones for ever.
  void Give(void* p, size_t size) {
    if (size < kLeastKept) {
      std::free(p);
      return;
    }
    std::vector<void*> dropped;
    bool kept = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; kept_ + size > kKeptBytes && i < free_.size();) {
        if (free_[i].size == size) {
          ++i;
          continue;
        }
        dropped.push_back(free_[i].data);
        kept_ -= free_[i].size;
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (kept_ + size <= kKeptBytes) {
        free_.push_back(Block{p, size});
        kept_ += size;
        kept = true;
      }
    }
    for (void* q : dropped) std::free(q);
    if (!kept) std::free(p);
  }

 private:
  std::mutex mutex_;
  std::vector<Block> free_;
  size_t kept_ = 0;
  double fresh_ = 0, reused_ = 0;
};

// Never destroyed: V8 may run the last finalizers while the process exits, after static
// destructors.
Pool& ThePool() {
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

Napi::Value ZeroedBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) throw Napi::TypeError::New(env, "zeroedBytes: size must be a number");
  const double v = info[0].As<Napi::Number>().DoubleValue();
  if (!(v >= 1 && v <= kMaxSize) || std::floor(v) != v) {
    throw Napi::RangeError::New(env, "zeroedBytes: size must be a whole number from 1 to 268435456");
  }
  const size_t size = static_cast<size_t>(v);
  void* p = ThePool().Take(size);
  if (p == nullptr) throw Napi::RangeError::New(env, "zeroedBytes: out of memory for " + std::to_string(size) + " bytes");
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(
      env, p, size, [](Napi::Env, void* data, size_t* hint) {
        ThePool().Give(data, reinterpret_cast<size_t>(hint));
      },
      reinterpret_cast<size_t*>(size));
  return Napi::Uint8Array::New(env, size, buffer, 0);
}

Napi::Value ZeroedBytesStats(const Napi::CallbackInfo& info) {
  const PoolStats s = ThePool().Stats();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("fresh", s.fresh);
  o.Set("reused", s.reused);
  o.Set("keptBytes", static_cast<double>(s.kept_bytes));
  Napi::Array sizes = Napi::Array::New(info.Env(), s.kept_sizes.size());
  for (uint32_t i = 0; i < s.kept_sizes.size(); ++i) sizes.Set(i, static_cast<double>(s.kept_sizes[i]));
  o.Set("keptSizes", sizes);
  return o;
}

}  // namespace htp
