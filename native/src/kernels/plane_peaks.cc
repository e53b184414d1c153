#include "kernels/plane_peaks.h"

#include <cstdint>
#include <limits>

#if defined(__x86_64__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

// The largest value of p[0..n) that is not NaN, -Infinity if none. MAXPS returns its second
// operand when either is NaN and FMAXNM the number, so a NaN never enters the running maximum.
float PlaneMax(const float* p, size_t n) {
  size_t i = 0;
  float m = -std::numeric_limits<float>::infinity();
  // Four running maxima: one MAXPS chain waits on the last (four cycles a step), four keep up
  // with the loads. The lanes see different values, but a tie can only differ in a zero's sign,
  // and the search below returns the first value equal to the maximum, whichever zero that is.
#if defined(__x86_64__)
  __m128 acc[4] = {_mm_set1_ps(m), _mm_set1_ps(m), _mm_set1_ps(m), _mm_set1_ps(m)};
  for (; i + 16 <= n; i += 16) {
    for (int k = 0; k < 4; ++k) acc[k] = _mm_max_ps(_mm_loadu_ps(p + i + 4 * k), acc[k]);
  }
  for (; i + 4 <= n; i += 4) acc[0] = _mm_max_ps(_mm_loadu_ps(p + i), acc[0]);
  float lanes[16];
  for (int k = 0; k < 4; ++k) _mm_storeu_ps(lanes + 4 * k, acc[k]);
  for (float v : lanes) m = v > m ? v : m;
#elif defined(__aarch64__)
  float32x4_t acc[4] = {vdupq_n_f32(m), vdupq_n_f32(m), vdupq_n_f32(m), vdupq_n_f32(m)};
  for (; i + 16 <= n; i += 16) {
    for (int k = 0; k < 4; ++k) acc[k] = vmaxnmq_f32(acc[k], vld1q_f32(p + i + 4 * k));
  }
  for (; i + 4 <= n; i += 4) acc[0] = vmaxnmq_f32(acc[0], vld1q_f32(p + i));
  m = vmaxnmvq_f32(vmaxnmq_f32(vmaxnmq_f32(acc[0], acc[1]), vmaxnmq_f32(acc[2], acc[3])));
#endif
  for (; i < n; ++i) m = p[i] > m ? p[i] : m;
  return m;
}

// The first index of p[0..n) whose value equals m (== semantics: either zero matches a zero, NaN
// never matches); m must be one of the values. Sixteen compared at a time where vectors exist.
size_t FirstEqual(const float* p, size_t n, float m) {
  size_t i = 0;
#if defined(__x86_64__)
  const __m128 v = _mm_set1_ps(m);
  for (; i + 16 <= n; i += 16) {
    const int hit = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p + i), v)) |
                    _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p + i + 4), v)) << 4 |
                    _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p + i + 8), v)) << 8 |
                    _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p + i + 12), v)) << 12;
    if (hit != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(hit)));
  }
#elif defined(__aarch64__)
  const float32x4_t v = vdupq_n_f32(m);
  for (; i + 16 <= n; i += 16) {
    const uint32x4_t any = vorrq_u32(
        vorrq_u32(vceqq_f32(vld1q_f32(p + i), v), vceqq_f32(vld1q_f32(p + i + 4), v)),
        vorrq_u32(vceqq_f32(vld1q_f32(p + i + 8), v), vceqq_f32(vld1q_f32(p + i + 12), v)));
    if (vmaxvq_u32(any) != 0) break;  // the first match is in these sixteen
  }
#endif
  while (p[i] != m) ++i;
  return i;
}

// The peaks of four adjacent channels of channels-last data, one pass over the pixels. A lane
// takes a value only when it is strictly greater (NaN never is), so it keeps the first pixel of
// its maximum, as the scalar loop below; -Infinity never enters, the lane then keeps pixel 0.
void FourChannelPeaks(const float* p, size_t pixels, size_t stride, double* out) {
  const float lowest = -std::numeric_limits<float>::infinity();
  float best[4] = {lowest, lowest, lowest, lowest};
  int32_t at[4] = {0, 0, 0, 0};
#if defined(__x86_64__)
  __m128 vb = _mm_set1_ps(lowest);
  __m128i va = _mm_setzero_si128();
  for (size_t i = 0; i < pixels; ++i) {
    const __m128 v = _mm_loadu_ps(p + i * stride);
    const __m128 gt = _mm_cmpgt_ps(v, vb);
    const __m128i take = _mm_castps_si128(gt);
    vb = _mm_or_ps(_mm_and_ps(gt, v), _mm_andnot_ps(gt, vb));
    const __m128i here = _mm_set1_epi32(static_cast<int32_t>(i));
    va = _mm_or_si128(_mm_and_si128(take, here), _mm_andnot_si128(take, va));
  }
  _mm_storeu_ps(best, vb);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(at), va);
#elif defined(__aarch64__)
  float32x4_t vb = vdupq_n_f32(lowest);
  int32x4_t va = vdupq_n_s32(0);
  for (size_t i = 0; i < pixels; ++i) {
    const float32x4_t v = vld1q_f32(p + i * stride);
    const uint32x4_t gt = vcgtq_f32(v, vb);
    vb = vbslq_f32(gt, v, vb);
    va = vbslq_s32(gt, vdupq_n_s32(static_cast<int32_t>(i)), va);
  }
  vst1q_f32(best, vb);
  vst1q_s32(at, va);
#else
  for (size_t i = 0; i < pixels; ++i) {
    for (int c = 0; c < 4; ++c) {
      const float v = p[i * stride + c];
      if (v > best[c]) {
        best[c] = v;
        at[c] = static_cast<int32_t>(i);
      }
    }
  }
#endif
  for (int c = 0; c < 4; ++c) {
    out[2 * c] = best[c];
    out[2 * c + 1] = at[c];
  }
}

}  // namespace

void FindPlanePeaks(const float* p, size_t planes, size_t plane, double* out) {
  for (size_t k = 0; k < planes; ++k) {
    const float* q = p + k * plane;
    const float m = PlaneMax(q, plane);
    const bool none = m == -std::numeric_limits<float>::infinity();  // all NaN or -Infinity
    const size_t at = none ? 0 : FirstEqual(q, plane, m);
    out[2 * k] = none ? m : q[at];
    out[2 * k + 1] = static_cast<double>(at);
  }
}

void FindChannelPeaks(const float* p, size_t items, size_t pixels, size_t channels, double* out) {
  for (size_t b = 0; b < items; ++b) {
    const float* q = p + b * pixels * channels;
    double* o = out + 2 * b * channels;
    size_t c = 0;
    // The vector lanes count pixels in int32.
    if (pixels <= static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      for (; c + 4 <= channels; c += 4) FourChannelPeaks(q + c, pixels, channels, o + 2 * c);
    }
    for (; c < channels; ++c) {
      float best = -std::numeric_limits<float>::infinity();
      size_t at = 0;
      for (size_t i = 0; i < pixels; ++i) {
        const float v = q[i * channels + c];
        if (v > best) {
          best = v;
          at = i;
        }
      }
      o[2 * c] = best;
      o[2 * c + 1] = static_cast<double>(at);
    }
  }
}

}  // namespace htp
