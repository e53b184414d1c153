#include "kernels/blend_quantize.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

using Form = QuantizerForm;

#if defined(__x86_64__)
constexpr int kWidth = 8;

// A LevelQuantizer's values in registers, read once per call: stores to the output (bytes, which
// may alias anything) would otherwise make the compiler reload them every step.
struct Quantizer8 {
  __m256 a, b, scale, lo, hi;
  __m256i zero;
};

// Eight values blended, rounded and quantized: the zero point added, not yet narrowed. A
// kSaturate quantizer holds the zero point in b and leaves the clamp to the narrowing.
template <Form kForm>
__attribute__((target("avx2"))) inline __m256i Levels8(const float* t, const float* u, __m256 vw,
                                                        const Quantizer8& q) {
  const __m256 top = _mm256_loadu_ps(t);
  const __m256 bot = _mm256_loadu_ps(u);
  __m256 v = _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bot, top), vw));
  // Truncation of a value below 2^31 in one instruction: the int cast and back, as a float.
  v = _mm256_round_ps(_mm256_add_ps(v, _mm256_set1_ps(0.5f)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m256 x = _mm256_add_ps(_mm256_mul_ps(v, q.a), q.b);
  // cvtps2dq rounds by MXCSR: half to even by default, as lrint does.
  if constexpr (kForm == Form::kSaturate) return _mm256_cvtps_epi32(x);
  if constexpr (kForm == Form::kDivide) x = _mm256_div_ps(x, q.scale);
  x = _mm256_min_ps(q.hi, _mm256_max_ps(q.lo, x));
  return _mm256_add_epi32(_mm256_cvtps_epi32(x), q.zero);
}

// From `from` on.
template <typename T, Form kForm>
__attribute__((target("avx2"))) int Vector256(const float* t, const float* u, float wy, int from,
                                              int n, const LevelQuantizer& lq, T* o) {
  const __m256 vw = _mm256_set1_ps(wy);
  const Quantizer8 q{_mm256_set1_ps(lq.a),  _mm256_set1_ps(lq.b),  _mm256_set1_ps(lq.scale),
                     _mm256_set1_ps(lq.lo), _mm256_set1_ps(lq.hi), _mm256_set1_epi32(lq.zero)};
  constexpr bool kUnsigned = std::is_same<T, uint8_t>::value;
  int i = from;
  // Thirty-two at a time: the same saturating narrowings as below, on whole registers (they work
  // per 128-bit lane, so a dword permute puts the four groups of eight back in order), a third of
  // the shuffles per value.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  for (; i + 4 * kWidth <= n; i += 4 * kWidth) {
    const __m256i a = _mm256_packs_epi32(Levels8<kForm>(t + i, u + i, vw, q),
                                         Levels8<kForm>(t + i + 8, u + i + 8, vw, q));
    const __m256i b = _mm256_packs_epi32(Levels8<kForm>(t + i + 16, u + i + 16, vw, q),
                                         Levels8<kForm>(t + i + 24, u + i + 24, vw, q));
    const __m256i bytes = kUnsigned ? _mm256_packus_epi16(a, b) : _mm256_packs_epi16(a, b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i),
                        _mm256_permutevar8x32_epi32(bytes, order));
  }
  for (; i + kWidth <= n; i += kWidth) {
    const __m256i q32 = Levels8<kForm>(t + i, u + i, vw, q);
    const __m128i q16 =
        _mm_packs_epi32(_mm256_castsi256_si128(q32), _mm256_extracti128_si256(q32, 1));
    const __m128i q8 = kUnsigned ? _mm_packus_epi16(q16, q16) : _mm_packs_epi16(q16, q16);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + i), q8);
  }
  return i;
}

#define HTP_AVX512 __attribute__((target("avx512f,avx512bw")))

struct Quantizer16 {
  __m512 a, b, scale, lo, hi;
  __m512i zero;
};

// Levels8's steps on sixteen lanes, in its order.
template <Form kForm>
HTP_AVX512 inline __m512i Levels16(const float* t, const float* u, __m512 vw,
                                   const Quantizer16& q) {
  const __m512 top = _mm512_loadu_ps(t);
  const __m512 bot = _mm512_loadu_ps(u);
  __m512 v = _mm512_add_ps(top, _mm512_mul_ps(_mm512_sub_ps(bot, top), vw));
  v = _mm512_roundscale_ps(_mm512_add_ps(v, _mm512_set1_ps(0.5f)),
                           _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m512 x = _mm512_add_ps(_mm512_mul_ps(v, q.a), q.b);
  if constexpr (kForm == Form::kSaturate) return _mm512_cvtps_epi32(x);
  if constexpr (kForm == Form::kDivide) x = _mm512_div_ps(x, q.scale);
  x = _mm512_min_ps(q.hi, _mm512_max_ps(q.lo, x));
  return _mm512_add_epi32(_mm512_cvtps_epi32(x), q.zero);
}

// Sixteen int32 to bytes with the AVX2 path's saturation: its two packs clamp to [0, 255]
// (uint8) or [-128, 127] (int8); VPMOVUSDB reads its lanes as unsigned, so negatives go to 0
// first.
template <typename T>
HTP_AVX512 inline __m128i Narrow16(__m512i v) {
  if constexpr (std::is_same<T, uint8_t>::value) {
    return _mm512_cvtusepi32_epi8(_mm512_max_epi32(v, _mm512_setzero_si512()));
  } else {
    return _mm512_cvtsepi32_epi8(v);
  }
}

// From `from` on.
template <typename T, Form kForm>
HTP_AVX512 int Vector512(const float* t, const float* u, float wy, int from, int n,
                         const LevelQuantizer& lq, T* o) {
  const __m512 vw = _mm512_set1_ps(wy);
  const Quantizer16 q{_mm512_set1_ps(lq.a),  _mm512_set1_ps(lq.b),  _mm512_set1_ps(lq.scale),
                      _mm512_set1_ps(lq.lo), _mm512_set1_ps(lq.hi), _mm512_set1_epi32(lq.zero)};
  int i = from;
  for (; i + 16 <= n; i += 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i),
                     Narrow16<T>(Levels16<kForm>(t + i, u + i, vw, q)));
  }
  return i;
}

template <typename T, Form kForm>
int Vector(const float* t, const float* u, float wy, int from, int n, const LevelQuantizer& lq,
           T* o) {
  const int done = HasAvx512() ? Vector512<T, kForm>(t, u, wy, from, n, lq, o) : from;
  return Vector256<T, kForm>(t, u, wy, done, n, lq, o);
}

// Sixty-four values blended and rounded as Levels16 does (the truncation of v + 0.5 as an int),
// narrowed to byte indices by two saturating packs (the plain loop's clamp to 0..255: blends of
// 0..255 never leave it, and a stray value saturates as the clamp would), the packs' per-lane
// order undone by one dword permute, then each index looked up in the 256-byte table.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) int Table64(const float* t, const float* u,
                                                                  float wy, int n,
                                                                  const unsigned char* table,
                                                                  void* o) {
  const __m512 vw = _mm512_set1_ps(wy);
  const __m512 half = _mm512_set1_ps(0.5f);
  const __m512i lut0 = _mm512_loadu_si512(table);
  const __m512i lut1 = _mm512_loadu_si512(table + 64);
  const __m512i lut2 = _mm512_loadu_si512(table + 128);
  const __m512i lut3 = _mm512_loadu_si512(table + 192);
  // After the packs, 128-bit lane L holds values 4L..4L+3 of each sixteen in turn.
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  unsigned char* out = static_cast<unsigned char*>(o);
  int i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i level[4];
    for (int k = 0; k < 4; ++k) {
      const __m512 top = _mm512_loadu_ps(t + i + 16 * k);
      const __m512 bot = _mm512_loadu_ps(u + i + 16 * k);
      const __m512 v = _mm512_add_ps(top, _mm512_mul_ps(_mm512_sub_ps(bot, top), vw));
      level[k] = _mm512_cvttps_epi32(_mm512_add_ps(v, half));
    }
    const __m512i words = _mm512_packus_epi32(level[0], level[1]);
    const __m512i words2 = _mm512_packus_epi32(level[2], level[3]);
    const __m512i index = _mm512_permutexvar_epi32(order, _mm512_packus_epi16(words, words2));
    const __m512i low = _mm512_permutex2var_epi8(lut0, index, lut1);
    const __m512i high = _mm512_permutex2var_epi8(lut2, index, lut3);
    _mm512_storeu_si512(out + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high));
  }
  return i;
}

// PrepareBlendQuantize sets a table only where TableAvailable().
int TableLookup(const float* t, const float* u, float wy, int n, const LevelQuantizer& q, void* o) {
  return q.table != nullptr ? Table64(t, u, wy, n, q.table, o) : 0;
}

bool TableAvailable() { return HasAvx512(); }

bool VectorAvailable() { return HasAvx2(); }
#elif defined(__aarch64__)
constexpr int kWidth = 4;

// A LevelQuantizer's values in registers, read once per call (as Quantizer8 above on x86-64).
struct Quantizer4 {
  float32x4_t a, b, scale, lo, hi;
  int32x4_t zero;
};

// Four values blended, rounded and quantized: the zero point added, not yet narrowed (as Levels8).
template <Form kForm>
inline int32x4_t Levels4(const float* t, const float* u, float32x4_t vw, const Quantizer4& q) {
  const float32x4_t top = vld1q_f32(t);
  const float32x4_t bot = vld1q_f32(u);
  float32x4_t v = vaddq_f32(top, vmulq_f32(vsubq_f32(bot, top), vw));
  v = vrndq_f32(vaddq_f32(v, vdupq_n_f32(0.5f)));  // FRINTZ truncates, as the int cast and back
  float32x4_t x = vaddq_f32(vmulq_f32(v, q.a), q.b);
  if constexpr (kForm == Form::kSaturate) return vcvtnq_s32_f32(x);  // FCVTNS: ties to even
  if constexpr (kForm == Form::kDivide) x = vdivq_f32(x, q.scale);
  x = vminq_f32(q.hi, vmaxq_f32(q.lo, x));
  return vaddq_s32(vcvtnq_s32_f32(x), q.zero);
}

template <typename T, Form kForm>
int Vector(const float* t, const float* u, float wy, int from, int n, const LevelQuantizer& lq,
           T* o) {
  const float32x4_t vw = vdupq_n_f32(wy);
  const Quantizer4 q{vdupq_n_f32(lq.a),  vdupq_n_f32(lq.b),  vdupq_n_f32(lq.scale),
                     vdupq_n_f32(lq.lo), vdupq_n_f32(lq.hi), vdupq_n_s32(lq.zero)};
  int i = from;
  // Sixteen at a time, narrowed with the same saturating steps as four at a time below.
  for (; i + 4 * kWidth <= n; i += 4 * kWidth) {
    int32x4_t q32[4];
    for (int k = 0; k < 4; ++k) q32[k] = Levels4<kForm>(t + i + 4 * k, u + i + 4 * k, vw, q);
    if constexpr (std::is_same<T, uint8_t>::value) {
      const uint16x8_t a = vcombine_u16(vqmovun_s32(q32[0]), vqmovun_s32(q32[1]));
      const uint16x8_t b = vcombine_u16(vqmovun_s32(q32[2]), vqmovun_s32(q32[3]));
      vst1q_u8(reinterpret_cast<uint8_t*>(o + i), vcombine_u8(vqmovn_u16(a), vqmovn_u16(b)));
    } else {
      const int16x8_t a = vcombine_s16(vqmovn_s32(q32[0]), vqmovn_s32(q32[1]));
      const int16x8_t b = vcombine_s16(vqmovn_s32(q32[2]), vqmovn_s32(q32[3]));
      vst1q_s8(reinterpret_cast<int8_t*>(o + i), vcombine_s8(vqmovn_s16(a), vqmovn_s16(b)));
    }
  }
  for (; i + kWidth <= n; i += kWidth) {
    const int32x4_t q32 = Levels4<kForm>(t + i, u + i, vw, q);
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

template <typename T, Form kForm>
int Vector(const float*, const float*, float, int from, int, const LevelQuantizer&, T*) {
  return from;
}

bool VectorAvailable() { return false; }
#endif

#if !defined(__x86_64__)
// Levels are looked up only by x86-64's AVX-512 VBMI byte permutes; elsewhere never.
int TableLookup(const float*, const float*, float, int, const LevelQuantizer&, void*) { return 0; }

bool TableAvailable() { return false; }
#endif

}  // namespace

template <typename T>
int BlendRoundQuantize(const float* t, const float* u, float wy, int n, const LevelQuantizer& q,
                       T* o) {
  const int done = TableLookup(t, u, wy, n, q, o);
  if (!q.arithmetic) return done;
  switch (q.form) {
    case Form::kSaturate: return Vector<T, Form::kSaturate>(t, u, wy, done, n, q, o);
    case Form::kMultiply: return Vector<T, Form::kMultiply>(t, u, wy, done, n, q, o);
    case Form::kDivide: break;
  }
  return Vector<T, Form::kDivide>(t, u, wy, done, n, q, o);
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
  candidate.arithmetic = true;  // while the forms are checked, without the table
  T got[256];
  // Cheapest first; each is taken only if it gives the table's 256 bytes, and since a blend is
  // rounded to a whole level before it is quantized, those are all the values it can meet.
  bool found = false;
  for (const Form form : {Form::kSaturate, Form::kMultiply, Form::kDivide}) {
    candidate.form = form;
    candidate.a = form == Form::kDivide ? a : a / scale;
    candidate.b = form == Form::kDivide ? b : b / scale;
    if (form == Form::kSaturate) candidate.b += static_cast<float>(zero);
    if (BlendRoundQuantize<T>(levels, levels, 0.f, 256, candidate, got) == 256 &&
        std::equal(got, got + 256, lut)) {
      found = true;
      break;
    }
  }
  // The lookup is the plain loop's own table: its bytes need no check. A form, where one fits,
  // still finishes the rows' last values (under 64) on the arithmetic path.
  candidate.arithmetic = found;
  candidate.table = TableAvailable() ? reinterpret_cast<const unsigned char*>(lut) : nullptr;
  if (!found && candidate.table == nullptr) return false;
  *q = candidate;
  return true;
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
