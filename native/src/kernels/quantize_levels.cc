#include "kernels/quantize_levels.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "kernels/quantize_store.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

constexpr int kLanes = 4;

#if defined(__x86_64__)
// SSE2 (every x86-64): cvtps2dq rounds by MXCSR, half to even by default, as lrint does.
template <typename T>
void Four(const float* v, T* o, __m128 a, __m128 b, __m128 scale, __m128 lo, __m128 hi,
          __m128i zero) {
  __m128 x = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(v), a), b);
  x = _mm_min_ps(hi, _mm_max_ps(lo, _mm_div_ps(x, scale)));
  const __m128i q = _mm_add_epi32(_mm_cvtps_epi32(x), zero);
  const __m128i q16 = _mm_packs_epi32(q, q);
  const __m128i q8 = std::is_same<T, uint8_t>::value ? _mm_packus_epi16(q16, q16)
                                                     : _mm_packs_epi16(q16, q16);
  const int bytes = _mm_cvtsi128_si32(q8);
  __builtin_memcpy(o, &bytes, kLanes);
}
#elif defined(__aarch64__)
// NEON: FCVTNS rounds to nearest, ties to even, whatever the FPCR says.
template <typename T>
void Four(const float* v, T* o, float32x4_t a, float32x4_t b, float32x4_t scale, float32x4_t lo,
          float32x4_t hi, int32x4_t zero) {
  float32x4_t x = vaddq_f32(vmulq_f32(vld1q_f32(v), a), b);
  x = vminq_f32(hi, vmaxq_f32(lo, vdivq_f32(x, scale)));
  const int32x4_t q = vaddq_s32(vcvtnq_s32_f32(x), zero);
  if constexpr (std::is_same<T, uint8_t>::value) {
    const uint8x8_t q8 = vqmovn_u16(vcombine_u16(vqmovun_s32(q), vqmovun_s32(q)));
    const uint32_t bytes = vget_lane_u32(vreinterpret_u32_u8(q8), 0);
    __builtin_memcpy(o, &bytes, kLanes);
  } else {
    const int8x8_t q8 = vqmovn_s16(vcombine_s16(vqmovn_s32(q), vqmovn_s32(q)));
    const uint32_t bytes = vget_lane_u32(vreinterpret_u32_s8(q8), 0);
    __builtin_memcpy(o, &bytes, kLanes);
  }
}
#endif

}  // namespace

template <typename T>
void QuantizeLevels(const float* v, T* o, int n, float a, float b, float scale, int zero) {
  int i = 0;
#if defined(__x86_64__) || defined(__aarch64__)
  // The clamp bounds of QuantizeLikeOrt: the output range shifted by the zero point.
  const float lo = static_cast<float>(std::numeric_limits<T>::min()) - zero;
  const float hi = static_cast<float>(std::numeric_limits<T>::max()) - zero;
#if defined(__x86_64__)
  const __m128 va = _mm_set1_ps(a), vb = _mm_set1_ps(b), vs = _mm_set1_ps(scale);
  const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
  const __m128i vz = _mm_set1_epi32(zero);
#else
  const float32x4_t va = vdupq_n_f32(a), vb = vdupq_n_f32(b), vs = vdupq_n_f32(scale);
  const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
  const int32x4_t vz = vdupq_n_s32(zero);
#endif
  for (; i + kLanes <= n; i += kLanes) Four<T>(v + i, o + i, va, vb, vs, vlo, vhi, vz);
#endif
  for (; i < n; ++i) o[i] = Store<T>::Put(v[i] * a + b, scale, zero);
}

template <typename T>
bool QuantizeLevelsMatch(const T* lut, float a, float b, float scale, int zero) {
  float levels[256];
  T got[256];
  for (int p = 0; p < 256; ++p) levels[p] = static_cast<float>(p);
  QuantizeLevels<T>(levels, got, 256, a, b, scale, zero);
  return std::equal(got, got + 256, lut);
}

template void QuantizeLevels<uint8_t>(const float*, uint8_t*, int, float, float, float, int);
template void QuantizeLevels<int8_t>(const float*, int8_t*, int, float, float, float, int);
template bool QuantizeLevelsMatch<uint8_t>(const uint8_t*, float, float, float, int);
template bool QuantizeLevelsMatch<int8_t>(const int8_t*, float, float, float, int);

}  // namespace htp
