#include "label_rows.h"

#include <algorithm>

#include "cpu_paths.h"

#if defined(__x86_64__)
#include <tmmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace htp {
namespace {

constexpr size_t kBlock = 16;

void Scalar(const uint8_t* __restrict src, const int32_t* cols, size_t from, size_t to,
            uint8_t* __restrict dst) {
  for (size_t u = from; u < to; ++u) dst[u] = src[cols[u]];
}

#if defined(__x86_64__)
__attribute__((target("ssse3"))) void Vector(const uint8_t* src, const LabelColumnPlan& p,
                                             uint8_t* dst) {
  const int32_t* cols = p.cols.data();
  for (size_t k = 0; k < p.window.size(); ++k) {
    const size_t u = k * kBlock;
    if (p.window[k] < 0) {
      Scalar(src, cols, u, u + kBlock, dst);
      continue;
    }
    const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + p.window[k]));
    const __m128i at = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p.shuffle.data() + u));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + u), _mm_shuffle_epi8(row, at));
  }
}

bool VectorAvailable() { return HasSsse3(); }
#elif defined(__aarch64__)
void Vector(const uint8_t* src, const LabelColumnPlan& p, uint8_t* dst) {
  const int32_t* cols = p.cols.data();
  for (size_t k = 0; k < p.window.size(); ++k) {
    const size_t u = k * kBlock;
    if (p.window[k] < 0) {
      Scalar(src, cols, u, u + kBlock, dst);
      continue;
    }
    vst1q_u8(dst + u, vqtbl1q_u8(vld1q_u8(src + p.window[k]), vld1q_u8(p.shuffle.data() + u)));
  }
}

bool VectorAvailable() { return SimdAllowed(); }
#else
void Vector(const uint8_t*, const LabelColumnPlan&, uint8_t*) {}
bool VectorAvailable() { return false; }
#endif

}  // namespace

LabelColumnPlan PlanLabelColumns(const int32_t* cols, size_t n, size_t grid_width) {
  LabelColumnPlan p;
  p.cols.assign(cols, cols + n);
  for (size_t u = 0; u + kBlock <= n; u += kBlock) {
    const auto [lo, hi] = std::minmax_element(cols + u, cols + u + kBlock);
    // The window may start left of the block's first label so that its 16 bytes stay in the row.
    const int64_t start = std::min<int64_t>(*lo, static_cast<int64_t>(grid_width) - kBlock);
    const bool fits = grid_width >= kBlock && *hi - start < static_cast<int64_t>(kBlock);
    p.window.push_back(fits ? static_cast<int32_t>(start) : -1);
    for (size_t i = 0; i < kBlock; ++i) {
      p.shuffle.push_back(fits ? static_cast<uint8_t>(cols[u + i] - start) : 0);
    }
  }
  return p;
}

void GatherLabelRow(const uint8_t* src, const LabelColumnPlan& plan, uint8_t* dst) {
  const size_t n = plan.cols.size();
  size_t done = 0;
  if (VectorAvailable()) {
    Vector(src, plan, dst);
    done = plan.window.size() * kBlock;
  }
  Scalar(src, plan.cols.data(), done, n, dst);
}

}  // namespace htp
