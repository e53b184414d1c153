#include "recycled_bytes.h"

#include <cmath>
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
constexpr double kMaxSize = 256.0 * 1024 * 1024;

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
        break;
      }
    }
    if (p == nullptr) return std::calloc(size, 1);
    std::memset(p, 0, size);
    return p;
  }

  void Give(void* p, size_t size) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (kept_ + size <= kKeptBytes) {
        free_.push_back(Block{p, size});
        kept_ += size;
        return;
      }
    }
    std::free(p);
  }

 private:
  std::mutex mutex_;
  std::vector<Block> free_;
  size_t kept_ = 0;
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

}  // namespace htp
