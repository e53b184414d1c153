#include "kernels/deinterleave_rgb.h"

#include <cstddef>

#include "kernels/cpu_paths.h"

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
__attribute__((target("avx2"))) int Avx2Floats(const uint8_t* src, int from, int n, float* p0,
                                               float* p1, float* p2) {
  float* planes[3] = {p0, p1, p2};
  int i = from;
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

#define HTP_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))

// 64 pixels = 192 bytes in three registers a, b, c: plane k's bytes 3 j + k below 128 come from
// a and b in one two-register byte permute, the rest from c in a masked one, so six permutes
// split 64 pixels where the SSSE3 path needs 36 shuffles and 24 ORs; then widened to floats.
struct Split64Tables {
  uint8_t ab[3][64];  // index into a|b (bit 6 picks b)
  uint8_t c[3][64];   // index into c, for the pixels in `from_c`
  uint64_t from_c[3];
};

constexpr Split64Tables MakeSplit64Tables() {
  Split64Tables t{};
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 64; ++j) {
      const int at = 3 * j + k;
      t.ab[k][j] = static_cast<uint8_t>(at < 128 ? at : 0);
      t.c[k][j] = static_cast<uint8_t>(at < 128 ? 0 : at - 128);
      if (at >= 128) t.from_c[k] |= uint64_t{1} << j;
    }
  }
  return t;
}

constexpr Split64Tables kSplit64 = MakeSplit64Tables();

struct Split64Index {
  __m512i ab[3], c[3];
};

HTP_AVX512 inline Split64Index LoadSplit64Index() {
  Split64Index x;
  for (int k = 0; k < 3; ++k) {
    x.ab[k] = _mm512_loadu_si512(kSplit64.ab[k]);
    x.c[k] = _mm512_loadu_si512(kSplit64.c[k]);
  }
  return x;
}

struct Planes64 {
  __m512i v[3];
};

HTP_AVX512 inline Planes64 Split64(const uint8_t* p, const Split64Index& x) {
  const __m512i a = _mm512_loadu_si512(p);
  const __m512i b = _mm512_loadu_si512(p + 64);
  const __m512i c = _mm512_loadu_si512(p + 128);
  Planes64 out;
  for (int k = 0; k < 3; ++k) {
    out.v[k] = _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(a, x.ab[k], b),
                                            kSplit64.from_c[k], x.c[k], c);
  }
  return out;
}

// Sixteen bytes of a plane, from its 128-bit quarter kQuarter, widened to floats.
template <int kQuarter>
HTP_AVX512 inline void StoreFloats16(__m512i bytes, float* dst) {
  const __m128i quarter = _mm512_extracti32x4_epi32(bytes, kQuarter);
  _mm512_storeu_ps(dst, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(quarter)));
}

HTP_AVX512 int Avx512Floats(const uint8_t* src, int n, float* p0, float* p1, float* p2) {
  float* planes[3] = {p0, p1, p2};
  const Split64Index x = LoadSplit64Index();
  int i = 0;
  for (; i + 64 <= n; i += 64) {
    const Planes64 s = Split64(src + static_cast<size_t>(i) * 3, x);
    for (int k = 0; k < 3; ++k) {
      StoreFloats16<0>(s.v[k], planes[k] + i);
      StoreFloats16<1>(s.v[k], planes[k] + i + 16);
      StoreFloats16<2>(s.v[k], planes[k] + i + 32);
      StoreFloats16<3>(s.v[k], planes[k] + i + 48);
    }
  }
  return i;
}

#endif

}  // namespace

void DeinterleaveRgb(const uint8_t* src, int n, uint8_t* plane0, uint8_t* plane1, uint8_t* plane2) {
  int done = 0;
#if defined(__x86_64__)
  // The AVX-512 split below measured slower here than SSSE3 when the planes are the result (the
  // detector's 640x480 letterbox: 0.106 against 0.077 ms), so bytes keep the 16-pixel path.
  if (HasSsse3()) done = Ssse3(src, n, plane0, plane1, plane2);
#endif
  Scalar(src, done, n, plane0, plane1, plane2);
}

void DeinterleaveRgbFloats(const uint8_t* src, int n, float* plane0, float* plane1, float* plane2) {
  int done = 0;
#if defined(__x86_64__)
  if (HasAvx512()) done = Avx512Floats(src, n, plane0, plane1, plane2);
  if (HasAvx2()) done = Avx2Floats(src, done, n, plane0, plane1, plane2);
#endif
  Scalar(src, done, n, plane0, plane1, plane2);
}

}  // namespace htp
