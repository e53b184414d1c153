#include "gather_blend.h"

#include <algorithm>

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

constexpr int kBlock = 8;

void Scalar(const float* __restrict p, const int* i0, const int* i1, const float* w, int from, int n,
            float* __restrict dst) {
  for (int i = from; i < n; ++i) {
    const float v0 = p[i0[i]];
    dst[i] = v0 + (p[i1[i]] - v0) * w[i];
  }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) int Avx2(const float* p, const GatherPlan& g, int n, float* dst) {
  const int* i0 = g.i0.data();
  const int* i1 = g.i1.data();
  const float* w = g.w.data();
  const __m256i seven = _mm256_set1_epi32(7);
  int i = 0;
  for (int k = 0; i + kBlock <= n; i += kBlock, ++k) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i0 + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i1 + i));
    __m256 v0, v1;
    const int start = g.window[k];
    if (start >= 0) {
      // Samples at start + 0..15: the low three bits pick a lane, the fourth the half.
      const __m256 lo = _mm256_loadu_ps(p + start);
      const __m256 hi = _mm256_loadu_ps(p + start + 8);
      const __m256i base = _mm256_set1_epi32(start);
      const __m256i ra = _mm256_sub_epi32(a, base);
      const __m256i rb = _mm256_sub_epi32(b, base);
      v0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, ra), _mm256_permutevar8x32_ps(hi, ra),
                            _mm256_castsi256_ps(_mm256_cmpgt_epi32(ra, seven)));
      v1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rb), _mm256_permutevar8x32_ps(hi, rb),
                            _mm256_castsi256_ps(_mm256_cmpgt_epi32(rb, seven)));
    } else {
      v0 = _mm256_i32gather_ps(p, a, 4);
      v1 = _mm256_i32gather_ps(p, b, 4);
    }
    const __m256 wx = _mm256_loadu_ps(w + i);
    _mm256_storeu_ps(dst + i, _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), wx)));
  }
  return i;
}
#elif defined(__aarch64__)
// NEON has no gather: the lanes are loaded one by one, the arithmetic is done four at a time.
int Neon(const float* p, const GatherPlan& g, int n, float* dst) {
  const int* i0 = g.i0.data();
  const int* i1 = g.i1.data();
  const float* w = g.w.data();
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

GatherPlan PlanGather(const int* i0, const int* i1, const float* w, int n) {
  GatherPlan g;
  g.i0.assign(i0, i0 + n);
  g.i1.assign(i1, i1 + n);
  g.w.assign(w, w + n);
  for (int i = 0; i + kBlock <= n; i += kBlock) {
    const int lo = std::min(*std::min_element(i0 + i, i0 + i + kBlock),
                            *std::min_element(i1 + i, i1 + i + kBlock));
    const int hi = std::max(*std::max_element(i0 + i, i0 + i + kBlock),
                            *std::max_element(i1 + i, i1 + i + kBlock));
    g.window.push_back(hi - lo < 2 * kBlock ? lo : -1);
  }
  return g;
}

void GatherBlend(const float* p, const GatherPlan& g, float* dst) {
  const int n = static_cast<int>(g.i0.size());
  int done = 0;
#if defined(__x86_64__)
  if (HasAvx2()) done = Avx2(p, g, n, dst);
#elif defined(__aarch64__)
  if (SimdAllowed()) done = Neon(p, g, n, dst);
#endif
  Scalar(p, g.i0.data(), g.i1.data(), g.w.data(), done, n, dst);
}

}  // namespace htp
