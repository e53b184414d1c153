#include "kernels/output_kernels.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "kernels/label_rows.h"
#include "kernels/plane_peaks.h"

namespace htp {
namespace {

[[noreturn]] void ThrowType(Napi::Env env, const std::string& what) {
  throw Napi::TypeError::New(env, what);
}
[[noreturn]] void ThrowRange(Napi::Env env, const std::string& what) {
  throw Napi::RangeError::New(env, what);
}

template <typename A>
A TypedArg(const Napi::CallbackInfo& info, size_t i, napi_typedarray_type type, const char* what) {
  if (info.Length() <= i || !info[i].IsTypedArray() ||
      info[i].As<Napi::TypedArray>().TypedArrayType() != type) {
    ThrowType(info.Env(), std::string(what));
  }
  return info[i].As<A>();
}

// A whole-number argument >= `least` (1 for counts and sizes; 0 for strides, where 0 is legal).
size_t WholeArg(const Napi::CallbackInfo& info, size_t i, const char* what, int least) {
  if (info.Length() <= i || !info[i].IsNumber()) ThrowType(info.Env(), std::string(what) + " must be a number");
  const double v = info[i].As<Napi::Number>().DoubleValue();
  if (!(v >= least && v <= 1e9) || std::floor(v) != v) {
    ThrowRange(info.Env(), std::string(what) + " must be a whole number >= " + std::to_string(least));
  }
  return static_cast<size_t>(v);
}

size_t CountArg(const Napi::CallbackInfo& info, size_t i, const char* what) { return WholeArg(info, i, what, 1); }
size_t IndexArg(const Napi::CallbackInfo& info, size_t i, const char* what) { return WholeArg(info, i, what, 0); }

// The largest float32 not above t: a float32 score beats it exactly when it beats t.
float Float32AtMost(double t) {
  const float f = static_cast<float>(t);
  return static_cast<double>(f) <= t ? f : std::nextafter(f, -std::numeric_limits<float>::infinity());
}

}  // namespace

Napi::Value PlanePeaks(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto data = TypedArg<Napi::Float32Array>(info, 0, napi_float32_array, "planePeaks: data must be a Float32Array");
  const size_t plane = CountArg(info, 1, "planePeaks: planeSize");
  const size_t n = data.ElementLength();
  if (n % plane != 0) {
    ThrowRange(env, "planePeaks: " + std::to_string(n) + " values are not whole planes of " +
                        std::to_string(plane));
  }
  const size_t planes = n / plane;
  Napi::Float64Array out = Napi::Float64Array::New(env, 2 * planes);
  FindPlanePeaks(data.Data(), planes, plane, out.Data());
  return out;
}

Napi::Value RemapLabels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto grid = TypedArg<Napi::Uint8Array>(info, 0, napi_uint8_array, "remapLabels: grid must be a Uint8Array");
  const size_t grid_width = CountArg(info, 1, "remapLabels: gridWidth");
  auto rows = TypedArg<Napi::Int32Array>(info, 2, napi_int32_array, "remapLabels: rows must be an Int32Array");
  auto cols = TypedArg<Napi::Int32Array>(info, 3, napi_int32_array, "remapLabels: cols must be an Int32Array");
  auto out = TypedArg<Napi::Uint8Array>(info, 4, napi_uint8_array, "remapLabels: out must be a Uint8Array");
  const size_t width = cols.ElementLength(), height = rows.ElementLength();
  if (out.ElementLength() != width * height) {
    ThrowRange(env, "remapLabels: out holds " + std::to_string(out.ElementLength()) +
                        " pixels, rows x cols is " + std::to_string(width * height));
  }
  const size_t grid_rows = grid.ElementLength() / grid_width;
  const int32_t* r = rows.Data();
  const int32_t* c = cols.Data();
  for (size_t v = 0; v < height; ++v) {
    if (r[v] >= 0 && static_cast<size_t>(r[v]) >= grid_rows) ThrowRange(env, "remapLabels: a row is outside the grid");
  }
  // Columns inside the grid form one run (the lookup is monotonic); checked, not assumed.
  size_t u0 = 0;
  while (u0 < width && c[u0] < 0) ++u0;
  size_t u1 = u0;
  while (u1 < width && c[u1] >= 0) {
    if (static_cast<size_t>(c[u1]) >= grid_width) ThrowRange(env, "remapLabels: a column is outside the grid");
    ++u1;
  }
  for (size_t u = u1; u < width; ++u) {
    if (c[u] >= 0) ThrowRange(env, "remapLabels: the columns inside the grid are not one run");
  }
  const uint8_t* g = grid.Data();
  uint8_t* o = out.Data();
  const LabelColumnPlan plan = PlanLabelColumns(c + u0, u1 - u0, grid_width);
  int32_t previous = -1;
  for (size_t v = 0; v < height; ++v) {
    if (r[v] < 0) {
      previous = -1;
      continue;
    }
    uint8_t* dst = o + v * width;
    if (r[v] == previous) {
      std::memcpy(dst + u0, dst - width + u0, u1 - u0);  // an upscaled map repeats rows
      continue;
    }
    GatherLabelRow(g + static_cast<size_t>(r[v]) * grid_width, plan, dst + u0);
    previous = r[v];
  }
  return env.Undefined();
}

Napi::Value YoloBestClasses(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto data = TypedArg<Napi::Float32Array>(info, 0, napi_float32_array, "yoloBestClasses: data must be a Float32Array");
  const size_t n = IndexArg(info, 1, "yoloBestClasses: numAnchors");
  const size_t classes = CountArg(info, 2, "yoloBestClasses: numClasses");
  const size_t cs = IndexArg(info, 3, "yoloBestClasses: channelStride");
  const size_t as = IndexArg(info, 4, "yoloBestClasses: anchorStride");
  if (info.Length() <= 5 || !info[5].IsNumber()) ThrowType(env, "yoloBestClasses: threshold must be a number");
  const double threshold = info[5].As<Napi::Number>().DoubleValue();
  auto anchors = TypedArg<Napi::Int32Array>(info, 6, napi_int32_array, "yoloBestClasses: anchors must be an Int32Array");
  auto best_class = TypedArg<Napi::Int32Array>(info, 7, napi_int32_array, "yoloBestClasses: classes must be an Int32Array");
  auto best_score = TypedArg<Napi::Float32Array>(info, 8, napi_float32_array, "yoloBestClasses: scores must be a Float32Array");
  if (n == 0) return Napi::Number::New(env, 0);
  const size_t last = (4 + classes - 1) * cs + (n - 1) * as;
  if (last >= data.ElementLength()) {
    ThrowRange(env, "yoloBestClasses: " + std::to_string(n) + " anchors of " + std::to_string(classes) +
                        " classes need " + std::to_string(last + 1) + " values, data has " +
                        std::to_string(data.ElementLength()));
  }
  if (anchors.ElementLength() < n || best_class.ElementLength() < n || best_score.ElementLength() < n) {
    ThrowRange(env, "yoloBestClasses: anchors, classes and scores must hold numAnchors entries");
  }
  // Class channel by class channel in memory order (contiguous in the usual [1, 4 + C, N]
  // layout), the running best per anchor kept in the output arrays, then compacted in place.
  const float* p = data.Data();
  float* s = best_score.Data();
  int32_t* c = best_class.Data();
  const float start = std::isnan(threshold) ? std::numeric_limits<float>::infinity() : Float32AtMost(threshold);
  for (size_t a = 0; a < n; ++a) {
    s[a] = start;
    c[a] = -1;
  }
  for (size_t k = 0; k < classes; ++k) {
    const float* q = p + (4 + k) * cs;
    const int32_t ki = static_cast<int32_t>(k);
    if (as == 1) {
      for (size_t a = 0; a < n; ++a) {
        const float v = q[a];
        const bool win = v > s[a];
        s[a] = win ? v : s[a];
        c[a] = win ? ki : c[a];
      }
    } else {
      for (size_t a = 0; a < n; ++a) {
        const float v = q[a * as];
        if (v > s[a]) {
          s[a] = v;
          c[a] = ki;
        }
      }
    }
  }
  int32_t* out = anchors.Data();
  size_t count = 0;
  for (size_t a = 0; a < n; ++a) {
    if (c[a] < 0) continue;
    out[count] = static_cast<int32_t>(a);
    c[count] = c[a];
    s[count] = s[a];
    ++count;
  }
  return Napi::Number::New(env, static_cast<double>(count));
}

}  // namespace htp
