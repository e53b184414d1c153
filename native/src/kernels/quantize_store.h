// How a normalized value becomes an element of the network input: float32 as is, uint8 / int8
// quantized exactly as ONNX Runtime's QuantizeLinear, and the 256-level lookup tables that
// replace that quantization when pixels are whole levels (sync, pure, no N-API; throws nothing).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace htp {

template <typename T>
struct Store;
template <>
struct Store<float> {
  static float Put(float v, float, int) { return v; }
};
// Quantizing exactly as ONNX Runtime's QuantizeLinear does on the CPU (MLAS): float32 division by
// the scale, clamp to the range shifted by the zero point, round half to even (lrint in the
// default rounding mode), add the zero point. Feeding a QDQ graph uint8 in place of its input
// QuantizeLinear then gives the tensor that node would have produced, bit for bit; a multiply by
// 1/scale or std::lround (half away from zero) would differ by one step near .5.
template <typename Q>
Q QuantizeLikeOrt(float v, float scale, int zero) {
  constexpr float lo = static_cast<float>(std::numeric_limits<Q>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const float x = std::min(hi - zero, std::max(lo - zero, v / scale));
  return static_cast<Q>(std::lrint(x) + zero);
}
template <>
struct Store<uint8_t> {
  static uint8_t Put(float v, float scale, int zero) { return QuantizeLikeOrt<uint8_t>(v, scale, zero); }
};
template <>
struct Store<int8_t> {
  static int8_t Put(float v, float scale, int zero) { return QuantizeLikeOrt<int8_t>(v, scale, zero); }
};

// The stores below go through uint8/int8 pointers, which may alias anything: without __restrict
// the compiler reloads every other value after each byte written (the quantized path measured
// 3.7 ms against 1.4 ms for floats at 640x480).
template <typename T>
void LookUp(const float* __restrict v, const T* __restrict lut, T* __restrict o, int n, int stride) {
  for (int i = 0; i < n; ++i) {
    const int level = std::min(255, std::max(0, static_cast<int>(v[i])));
    o[static_cast<size_t>(i) * stride] = lut[level];
  }
}

// A table that maps every level to itself (a uint8 input quantized with scale 1/255 and zero point
// 0 from 0..1 values, as YOLO QDQ exports have) is a clamp and a conversion, which vectorizes.
template <typename T>
void StoreLevels(const float* __restrict v, T* __restrict o, int n, int stride) {
  for (int i = 0; i < n; ++i) {
    const int level = std::min(255, std::max(0, static_cast<int>(v[i])));
    o[static_cast<size_t>(i) * stride] = static_cast<T>(level);
  }
}

template <typename T>
bool IsIdentity(const T* lut) {
  for (int p = 0; p < 256; ++p)
    if (static_cast<int>(lut[p]) != p) return false;
  return true;
}

}  // namespace htp
