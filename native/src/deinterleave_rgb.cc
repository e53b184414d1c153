#include "deinterleave_rgb.h"

#include <cstddef>

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace htp {
namespace {

void Scalar(const uint8_t* __restrict src, int from, int n, uint8_t* __restrict p0,
            uint8_t* __restrict p1, uint8_t* __restrict p2) {
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
__attribute__((target("ssse3"))) int Ssse3(const uint8_t* src, int n, uint8_t* p0, uint8_t* p1,
                                           uint8_t* p2) {
  const __m128i a0 = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b0 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
  const __m128i c0 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
  const __m128i a1 = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b1 = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
  const __m128i c1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
  const __m128i a2 = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b2 = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
  const __m128i c2 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const uint8_t* p = src + static_cast<size_t>(i) * 3;
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32));
    const __m128i v0 = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a0), _mm_shuffle_epi8(b, b0)),
                                    _mm_shuffle_epi8(c, c0));
    const __m128i v1 = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a1), _mm_shuffle_epi8(b, b1)),
                                    _mm_shuffle_epi8(c, c1));
    const __m128i v2 = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, a2), _mm_shuffle_epi8(b, b2)),
                                    _mm_shuffle_epi8(c, c2));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p0 + i), v0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p1 + i), v1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p2 + i), v2);
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

}  // namespace htp
