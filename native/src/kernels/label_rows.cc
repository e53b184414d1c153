#include "kernels/label_rows.h"

#include <algorithm>

#include "kernels/cpu_paths.h"

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

#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
#define HTP_LABEL_ROWS_TARGET __attribute__((target("ssse3")))
// dst[i] = window[at[i]] for i < 16.
HTP_LABEL_ROWS_TARGET inline void Shuffle16(const uint8_t* window, const uint8_t* at, uint8_t* dst) {
  const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(window));
  const __m128i idx = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_shuffle_epi8(row, idx));
}
bool VectorAvailable() { return HasSsse3(); }
#else
#define HTP_LABEL_ROWS_TARGET
inline void Shuffle16(const uint8_t* window, const uint8_t* at, uint8_t* dst) {
  vst1q_u8(dst, vqtbl1q_u8(vld1q_u8(window), vld1q_u8(at)));
}
bool VectorAvailable() { return SimdAllowed(); }
#endif

HTP_LABEL_ROWS_TARGET void Vector(const uint8_t* src, const LabelColumnPlan& p, uint8_t* dst) {
  const int32_t* cols = p.cols.data();
  for (size_t k = 0; k < p.window.size(); ++k) {
    const size_t u = k * kBlock;
    if (p.window[k] < 0) {
      Scalar(src, cols, u, u + kBlock, dst);
    } else {
      Shuffle16(src + p.window[k], p.shuffle.data() + u, dst + u);
    }
  }
}
#undef HTP_LABEL_ROWS_TARGET
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
