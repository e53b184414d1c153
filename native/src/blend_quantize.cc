#include "blend_quantize.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

#if defined(__x86_64__)
constexpr int kWidth = 8;

template <typename T, bool kDivide>
__attribute__((target("avx2"))) int Vector(const float* t, const float* u, float wy, int n,
                                           const LevelQuantizer& q, T* o) {
  const __m256 vw = _mm256_set1_ps(wy), half = _mm256_set1_ps(0.5f);
  const __m256 va = _mm256_set1_ps(q.a), vb = _mm256_set1_ps(q.b), vs = _mm256_set1_ps(q.scale);
  const __m256 lo = _mm256_set1_ps(q.lo), hi = _mm256_set1_ps(q.hi);
  const __m256i zero = _mm256_set1_epi32(q.zero);
  int i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    const __m256 top = _mm256_loadu_ps(t + i);
    const __m256 bot = _mm256_loadu_ps(u + i);
    __m256 v = _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bot, top), vw));
    v = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(_mm256_add_ps(v, half)));
    __m256 x = _mm256_add_ps(_mm256_mul_ps(v, va), vb);
    if constexpr (kDivide) x = _mm256_div_ps(x, vs);
    x = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
    // cvtps2dq rounds by MXCSR: half to even by default, as lrint does.
    const __m256i q32 = _mm256_add_epi32(_mm256_cvtps_epi32(x), zero);
    const __m128i q16 =
        _mm_packs_epi32(_mm256_castsi256_si128(q32), _mm256_extracti128_si256(q32, 1));
    const __m128i q8 = std::is_same<T, uint8_t>::value ? _mm_packus_epi16(q16, q16)
                                                       : _mm_packs_epi16(q16, q16);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + i), q8);
  }
  return i;
}

bool VectorAvailable() { return HasAvx2(); }
#elif defined(__aarch64__)
constexpr int kWidth = 4;

template <typename T, bool kDivide>
int Vector(const float* t, const float* u, float wy, int n, const LevelQuantizer& q, T* o) {
  const float32x4_t vw = vdupq_n_f32(wy), half = vdupq_n_f32(0.5f);
  const float32x4_t va = vdupq_n_f32(q.a), vb = vdupq_n_f32(q.b), vs = vdupq_n_f32(q.scale);
  const float32x4_t lo = vdupq_n_f32(q.lo), hi = vdupq_n_f32(q.hi);
  const int32x4_t zero = vdupq_n_s32(q.zero);
  int i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    const float32x4_t top = vld1q_f32(t + i);
    const float32x4_t bot = vld1q_f32(u + i);
    float32x4_t v = vaddq_f32(top, vmulq_f32(vsubq_f32(bot, top), vw));
    v = vcvtq_f32_s32(vcvtq_s32_f32(vaddq_f32(v, half)));  // FCVTZS truncates, as the int cast
    float32x4_t x = vaddq_f32(vmulq_f32(v, va), vb);
    if constexpr (kDivide) x = vdivq_f32(x, vs);
    x = vminq_f32(hi, vmaxq_f32(lo, x));
    const int32x4_t q32 = vaddq_s32(vcvtnq_s32_f32(x), zero);  // FCVTNS: ties to even
    uint32_t bytes;
    if constexpr (std::is_same<T, uint8_t>::value) {
      const uint8x8_t q8 = vqmovn_u16(vcombine_u16(vqmovun_s32(q32), vqmovun_s32(q32)));
      bytes = vget_lane_u32(vreinterpret_u32_u8(q8), 0);
    } else {
      const int8x8_t q8 = vqmovn_s16(vcombine_s16(vqmovn_s32(q32), vqmovn_s32(q32)));
      bytes = vget_lane_u32(vreinterpret_u32_s8(q8), 0);
    }
    __builtin_memcpy(o + i, &bytes, kWidth);
  }
  return i;
}

bool VectorAvailable() { return SimdAllowed(); }
#else
constexpr int kWidth = 1;

template <typename T, bool kDivide>
int Vector(const float*, const float*, float, int, const LevelQuantizer&, T*) {
  return 0;
}

bool VectorAvailable() { return false; }
#endif

}  // namespace

template <typename T>
int BlendRoundQuantize(const float* t, const float* u, float wy, int n, const LevelQuantizer& q,
                       T* o) {
  return q.divide ? Vector<T, true>(t, u, wy, n, q, o) : Vector<T, false>(t, u, wy, n, q, o);
}

template <typename T>
bool PrepareBlendQuantize(const T* lut, float a, float b, float scale, int zero, LevelQuantizer* q) {
  static_assert(256 % kWidth == 0, "the check covers every level on the vector path");
  if (!VectorAvailable()) return false;
  float levels[256];
  for (int p = 0; p < 256; ++p) levels[p] = static_cast<float>(p);
  LevelQuantizer candidate;
  candidate.zero = zero;
  candidate.lo = static_cast<float>(std::numeric_limits<T>::min()) - zero;
  candidate.hi = static_cast<float>(std::numeric_limits<T>::max()) - zero;
  candidate.scale = scale;
  T got[256];
  for (const bool divide : {false, true}) {
    candidate.divide = divide;
    candidate.a = divide ? a : a / scale;
    candidate.b = divide ? b : b / scale;
    if (BlendRoundQuantize<T>(levels, levels, 0.f, 256, candidate, got) == 256 &&
        std::equal(got, got + 256, lut)) {
      *q = candidate;
      return true;
    }
  }
  return false;
}

template int BlendRoundQuantize<uint8_t>(const float*, const float*, float, int,
                                         const LevelQuantizer&, uint8_t*);
template int BlendRoundQuantize<int8_t>(const float*, const float*, float, int,
                                        const LevelQuantizer&, int8_t*);
template bool PrepareBlendQuantize<uint8_t>(const uint8_t*, float, float, float, int,
                                            LevelQuantizer*);
template bool PrepareBlendQuantize<int8_t>(const int8_t*, float, float, float, int,
                                           LevelQuantizer*);

}  // namespace htp
