#include "kernels/gather_blend.h"

#include <algorithm>
#include <cstddef>

#include "kernels/cpu_paths.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

constexpr int kBlock = 8;     // AVX2
constexpr int kBlock16 = 16;  // AVX-512

void Scalar(const float* __restrict p, const int* i0, const int* i1, const float* w, int from, int n,
            float* __restrict dst) {
  for (int i = from; i < n; ++i) {
    const float v0 = p[i0[i]];
    dst[i] = v0 + (p[i1[i]] - v0) * w[i];
  }
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) int Avx512(const float* p, size_t p_stride, const GatherPlan& g,
                                              int n, float* dst, size_t dst_stride) {
  const int* i0 = g.i0.data();
  const int* i1 = g.i1.data();
  const int* s0 = g.offset0.data();
  const int* s1 = g.offset1.data();
  const float* w = g.w.data();
  const int* window = g.window16.data();
  int i = 0;
  for (int k = 0; i + kBlock16 <= n; i += kBlock16, ++k) {
    const __m512 wx = _mm512_loadu_ps(w + i);
    const int start = window[k];
    if (start >= 0) {
      const __m512i a = _mm512_loadu_si512(s0 + i);
      const __m512i b = _mm512_loadu_si512(s1 + i);
      for (int c = 0; c < 3; ++c) {
        const float* q = p + c * p_stride + start;
        const __m512 lo = _mm512_loadu_ps(q);
        const __m512 hi = _mm512_loadu_ps(q + 16);
        const __m512 v0 = _mm512_permutex2var_ps(lo, a, hi);
        const __m512 v1 = _mm512_permutex2var_ps(lo, b, hi);
        _mm512_storeu_ps(dst + c * dst_stride + i,
                         _mm512_add_ps(v0, _mm512_mul_ps(_mm512_sub_ps(v1, v0), wx)));
      }
    } else {
      const __m512i a = _mm512_loadu_si512(i0 + i);
      const __m512i b = _mm512_loadu_si512(i1 + i);
      for (int c = 0; c < 3; ++c) {
        const float* q = p + c * p_stride;
        const __m512 v0 = _mm512_i32gather_ps(a, q, 4);
        const __m512 v1 = _mm512_i32gather_ps(b, q, 4);
        _mm512_storeu_ps(dst + c * dst_stride + i,
                         _mm512_add_ps(v0, _mm512_mul_ps(_mm512_sub_ps(v1, v0), wx)));
      }
    }
  }
  return i;
}

// Blocks of eight from `from` (a multiple of eight) on.
__attribute__((target("avx2"))) int Avx2(const float* p, size_t p_stride, const GatherPlan& g,
                                         int from, int n, float* dst, size_t dst_stride) {
  const int* i0 = g.i0.data();
  const int* i1 = g.i1.data();
  const int* s0 = g.select0.data();
  const int* s1 = g.select1.data();
  const float* w = g.w.data();
  const int* window = g.window.data();
  int i = from;
  for (int k = from / kBlock; i + kBlock <= n; i += kBlock, ++k) {
    const __m256 wx = _mm256_loadu_ps(w + i);
    const int start = window[k];
    if (start >= 0) {
      // Samples at start + 0..15: each select's low three bits pick a lane (all VPERMPS reads),
      // its sign bit the half (all BLENDVPS reads). Planned once, used for the three channels.
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s0 + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + i));
      for (int c = 0; c < 3; ++c) {
        const float* q = p + c * p_stride + start;
        const __m256 lo = _mm256_loadu_ps(q);
        const __m256 hi = _mm256_loadu_ps(q + 8);
        const __m256 v0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, a),
                                           _mm256_permutevar8x32_ps(hi, a), _mm256_castsi256_ps(a));
        const __m256 v1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, b),
                                           _mm256_permutevar8x32_ps(hi, b), _mm256_castsi256_ps(b));
        _mm256_storeu_ps(dst + c * dst_stride + i,
                         _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), wx)));
      }
    } else {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i0 + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(i1 + i));
      for (int c = 0; c < 3; ++c) {
        const float* q = p + c * p_stride;
        const __m256 v0 = _mm256_i32gather_ps(q, a, 4);
        const __m256 v1 = _mm256_i32gather_ps(q, b, 4);
        _mm256_storeu_ps(dst + c * dst_stride + i,
                         _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), wx)));
      }
    }
  }
  return i;
}
#elif defined(__aarch64__)
// NEON has no gather: the lanes are loaded one by one, the arithmetic is done four at a time.
int Neon(const float* p, size_t p_stride, const GatherPlan& g, int n, float* dst,
         size_t dst_stride) {
  const int* i0 = g.i0.data();
  const int* i1 = g.i1.data();
  const float* w = g.w.data();
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t wx = vld1q_f32(w + i);
    for (int c = 0; c < 3; ++c) {
      const float* q = p + c * p_stride;
      const float a[4] = {q[i0[i]], q[i0[i + 1]], q[i0[i + 2]], q[i0[i + 3]]};
      const float b[4] = {q[i1[i]], q[i1[i + 1]], q[i1[i + 2]], q[i1[i + 3]]};
      const float32x4_t v0 = vld1q_f32(a);
      const float32x4_t v1 = vld1q_f32(b);
      vst1q_f32(dst + c * dst_stride + i, vaddq_f32(v0, vmulq_f32(vsubq_f32(v1, v0), wx)));
    }
  }
  return i;
}
#endif

}  // namespace

namespace {

// The first sample of the `block` input pixels from i, if all their samples lie in a window of
// 2 x block values from it; -1 if they spread wider.
int WindowStart(const int* i0, const int* i1, int i, int block) {
  const int lo = std::min(*std::min_element(i0 + i, i0 + i + block),
                          *std::min_element(i1 + i, i1 + i + block));
  const int hi = std::max(*std::max_element(i0 + i, i0 + i + block),
                          *std::max_element(i1 + i, i1 + i + block));
  return hi - lo < 2 * block ? lo : -1;
}

}  // namespace

GatherPlan PlanGather(const int* i0, const int* i1, const float* w, int n) {
  GatherPlan g;
  g.i0.assign(i0, i0 + n);
  g.i1.assign(i1, i1 + n);
  g.w.assign(w, w + n);
  for (int i = 0; i + kBlock <= n; i += kBlock) {
    const int lo = WindowStart(i0, i1, i, kBlock);
    g.window.push_back(lo);
    for (int j = i; j < i + kBlock; ++j) {
      // Offset r in the window as a select: lane r & 7 in the low bits, half r >> 3 in the sign.
      auto select = [&](int at) {
        const int r = lo >= 0 ? at - lo : 0;
        return static_cast<int>((r & 7) | (static_cast<unsigned>(r >> 3) << 31));
      };
      g.select0.push_back(select(i0[j]));
      g.select1.push_back(select(i1[j]));
    }
  }
  if (!HasAvx512()) return g;
  for (int i = 0; i + kBlock16 <= n; i += kBlock16) {
    const int lo = WindowStart(i0, i1, i, kBlock16);
    g.window16.push_back(lo);
    for (int j = i; j < i + kBlock16; ++j) {
      g.offset0.push_back(lo >= 0 ? i0[j] - lo : 0);
      g.offset1.push_back(lo >= 0 ? i1[j] - lo : 0);
    }
  }
  return g;
}

void GatherBlend3(const float* p, size_t p_stride, const GatherPlan& g, float* dst,
                  size_t dst_stride) {
  const int n = static_cast<int>(g.i0.size());
  int done = 0;
#if defined(__x86_64__)
  if (HasAvx512()) done = Avx512(p, p_stride, g, n, dst, dst_stride);
  if (HasAvx2()) done = Avx2(p, p_stride, g, done, n, dst, dst_stride);
#elif defined(__aarch64__)
  if (SimdAllowed()) done = Neon(p, p_stride, g, n, dst, dst_stride);
#endif
  for (int c = 0; c < 3; ++c) {
    Scalar(p + c * p_stride, g.i0.data(), g.i1.data(), g.w.data(), done, n, dst + c * dst_stride);
  }
}

}  // namespace htp
