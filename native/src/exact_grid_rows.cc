#include "exact_grid_rows.h"

namespace htp {

GridStep ExactGridStep(const std::vector<int>& i0, const std::vector<int>& i1, const std::vector<float>& w1) {
  const size_t n = i0.size();
  if (n == 0) return GridStep::kNone;
  bool copy = true, half = true;
  for (size_t k = 0; k < n && (copy || half); ++k) {
    const int at = i0[0] + static_cast<int>(k);
    copy = copy && w1[k] == 0.f && i0[k] == at;
    half = half && w1[k] == 0.5f && i0[k] == i0[0] + 2 * static_cast<int>(k) && i1[k] == i0[k] + 1;
  }
  return copy ? GridStep::kCopy : (half ? GridStep::kHalf : GridStep::kNone);
}

namespace {

// One channel: the sum of the nx_block x ny_block source bytes under each input pixel, as the
// exact value S / D (D = block size, a power of two, so the division is exact in float) or, with
// round_pixels, rounded half up: floor(S / D + 1/2) = (2 S + D) / (2 D) in integers.
template <int BX, int BY>
void Channel(const uint8_t* __restrict row0, const uint8_t* __restrict row1, int bpp, int nx,
             bool round_pixels, float* __restrict dst) {
  constexpr int D = BX * BY;
  for (int i = 0; i < nx; ++i) {
    const uint8_t* p = row0 + static_cast<size_t>(i) * BX * bpp;
    int sum = p[0];
    if (BX == 2) sum += p[bpp];
    if (BY == 2) {
      const uint8_t* q = row1 + static_cast<size_t>(i) * BX * bpp;
      sum += q[0];
      if (BX == 2) sum += q[bpp];
    }
    dst[i] = round_pixels ? static_cast<float>((2 * sum + D) / (2 * D))
                          : static_cast<float>(sum) * (1.f / static_cast<float>(D));
  }
}

}  // namespace

void ExactGridRow(const uint8_t* frame, size_t step, const PackedLayout& layout, GridStep gx,
                  GridStep gy, int x_first, int sy, int nx, bool round_pixels, float* dst) {
  const int bpp = layout.bytes_per_pixel;
  const uint8_t* row0 = frame + static_cast<size_t>(sy) * step + static_cast<size_t>(x_first) * bpp;
  const uint8_t* row1 = gy == GridStep::kHalf ? row0 + step : row0;
  for (int c = 0; c < 3; ++c) {
    const uint8_t* a = row0 + layout.offset[c];
    const uint8_t* b = row1 + layout.offset[c];
    float* out = dst + static_cast<size_t>(c) * nx;
    if (gx == GridStep::kCopy && gy == GridStep::kCopy) Channel<1, 1>(a, b, bpp, nx, round_pixels, out);
    else if (gx == GridStep::kHalf && gy == GridStep::kHalf) Channel<2, 2>(a, b, bpp, nx, round_pixels, out);
    else if (gx == GridStep::kHalf) Channel<2, 1>(a, b, bpp, nx, round_pixels, out);
    else Channel<1, 2>(a, b, bpp, nx, round_pixels, out);
  }
}

}  // namespace htp
