#include "gather_blend.h"

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

void Scalar(const float* __restrict p, const int* i0, const int* i1, const float* w, int from, int n,
            float* __restrict dst) {
  for (int i = from; i < n; ++i) {
    const float v0 = p[i0[i]];
    dst[i] = v0 + (p[i1[i]] - v0) * w[i];
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) int Avx2(const float* p, const int* i0, const int* i1,
                                         const float* w, int n, float* dst) {
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i0 + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i1 + i));
    const __m256 v0 = _mm256_i32gather_ps(p, a, 4);
    const __m256 v1 = _mm256_i32gather_ps(p, b, 4);
    const __m256 wx = _mm256_loadu_ps(w + i);
    _mm256_storeu_ps(dst + i, _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), wx)));
  }
  return i;
}
#elif defined(__aarch64__)
// NEON has no gather: the lanes are loaded one by one, the arithmetic is done four at a time.
int Neon(const float* p, const int* i0, const int* i1, const float* w, int n, float* dst) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const float a[4] = {p[i0[i]], p[i0[i + 1]], p[i0[i + 2]], p[i0[i + 3]]};
    const float b[4] = {p[i1[i]], p[i1[i + 1]], p[i1[i + 2]], p[i1[i + 3]]};
    const float32x4_t v0 = vld1q_f32(a);
    const float32x4_t v1 = vld1q_f32(b);
    vst1q_f32(dst + i, vaddq_f32(v0, vmulq_f32(vsubq_f32(v1, v0), vld1q_f32(w + i))));
  }
  return i;
}
#endif

}  // namespace

void GatherBlend(const float* p, const int* i0, const int* i1, const float* w, int n, float* dst) {
  int done = 0;
#if defined(__x86_64__)
  if (HasAvx2()) done = Avx2(p, i0, i1, w, n, dst);
#elif defined(__aarch64__)
  if (SimdAllowed()) done = Neon(p, i0, i1, w, n, dst);
#endif
  Scalar(p, i0, i1, w, done, n, dst);
}

}  // namespace htp
