#include "deinterleave_rgb.h"

#include <cstddef>

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace htp {
namespace {

// Byte planes, or float planes holding the same values.
template <typename T>
void Scalar(const uint8_t* __restrict src, int from, int n, T* __restrict p0, T* __restrict p1,
            T* __restrict p2) {
  for (int i = from; i < n; ++i) {
    const uint8_t* p = src + static_cast<size_t>(i) * 3;
    p0[i] = p[0];
    p1[i] = p[1];
    p2[i] = p[2];
  }
}

#if defined(__x86_64__)
// 16 pixels = 48 bytes in three registers a, b, c. Byte k of pixel j sits at 3 j + k: plane k
// takes its bytes from a, b and c at the positions below (-1: zero, filled by another register).
struct Planes16 {
  __m128i v[3];
};

__attribute__((target("ssse3"))) inline Planes16 Split16(const uint8_t* p) {
  const __m128i a0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b0 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
  const __m128i c0 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
  const __m128i a1 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
  const __m128i c1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
  const __m128i a2 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b2 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
  const __m128i c2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32));
  Planes16 out;
  out.v[0] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a0), _mm_shuffle_epi8(b, b0)),
                          _mm_shuffle_epi8(c, c0));
  out.v[1] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a1), _mm_shuffle_epi8(b, b1)),
                          _mm_shuffle_epi8(c, c1));
  out.v[2] = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a2), _mm_shuffle_epi8(b, b2)),
                          _mm_shuffle_epi8(c, c2));
  return out;
}

__attribute__((target("ssse3"))) int Ssse3(const uint8_t* src, int n, uint8_t* p0, uint8_t* p1,
                                           uint8_t* p2) {
  uint8_t* planes[3] = {p0, p1, p2};
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const Planes16 s = Split16(src + static_cast<size_t>(i) * 3);
    for (int k = 0; k < 3; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(planes[k] + i), s.v[k]);
  }
  return i;
}

// The same split, each byte widened to a float in the register it was split into.
__attribute__((target("avx2"))) int Avx2Floats(const uint8_t* src, int n, float* p0, float* p1,
                                               float* p2) {
  float* planes[3] = {p0, p1, p2};
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const Planes16 s = Split16(src + static_cast<size_t>(i) * 3);
    for (int k = 0; k < 3; ++k) {
      _mm256_storeu_ps(planes[k] + i, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(s.v[k])));
      _mm256_storeu_ps(planes[k] + i + 8,
                       _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(s.v[k], 8))));
    }
  }
  return i;
}

#endif

}  // namespace

void DeinterleaveRgb(const uint8_t* src, int n, uint8_t* plane0, uint8_t* plane1, uint8_t* plane2) {
  int done = 0;
#if defined(__x86_64__)
  if (HasSsse3()) done = Ssse3(src, n, plane0, plane1, plane2);
#endif
  Scalar(src, done, n, plane0, plane1, plane2);
}

void DeinterleaveRgbFloats(const uint8_t* src, int n, float* plane0, float* plane1, float* plane2) {
  int done = 0;
#if defined(__x86_64__)
  if (HasAvx2()) done = Avx2Floats(src, n, plane0, plane1, plane2);
#endif
  Scalar(src, done, n, plane0, plane1, plane2);
}

}  // namespace htp
