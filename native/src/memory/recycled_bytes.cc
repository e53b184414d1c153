#include "memory/recycled_bytes.h"

#include "memory/recycled_blocks.h"

#include <cmath>
#include <string>

namespace htp {
namespace {

constexpr double kMaxSize = 256.0 * 1024 * 1024;

Napi::Object StatsToJs(Napi::Env env, const PoolStats& s) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("fresh", s.fresh);
  o.Set("reused", s.reused);
  o.Set("keptBytes", static_cast<double>(s.kept_bytes));
  Napi::Array sizes = Napi::Array::New(env, s.kept_sizes.size());
  for (uint32_t i = 0; i < s.kept_sizes.size(); ++i) sizes.Set(i, static_cast<double>(s.kept_sizes[i]));
  o.Set("keptSizes", sizes);
  return o;
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
  void* p = LabelImageBlocks().Take(size, true);
  if (p == nullptr) throw Napi::RangeError::New(env, "zeroedBytes: out of memory for " + std::to_string(size) + " bytes");
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(
      env, p, size, [](Napi::Env, void* data, size_t* hint) {
        LabelImageBlocks().Give(data, reinterpret_cast<size_t>(hint));
      },
      reinterpret_cast<size_t*>(size));
  return Napi::Uint8Array::New(env, size, buffer, 0);
}

Napi::Value ZeroedBytesStats(const Napi::CallbackInfo& info) {
  return StatsToJs(info.Env(), LabelImageBlocks().Stats());
}

Napi::Value OutputBlocksStats(const Napi::CallbackInfo& info) {
  return StatsToJs(info.Env(), OutputBlocks().Stats());
}

}  // namespace htp
