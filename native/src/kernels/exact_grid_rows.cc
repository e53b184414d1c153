#include "kernels/exact_grid_rows.h"

#include "kernels/deinterleave_rgb.h"

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

// The sum S of the BX x BY source bytes under input pixel i (one channel, pixels bpp bytes apart).
template <int BX, int BY>
inline int BlockSum(const uint8_t* __restrict row0, const uint8_t* __restrict row1, int bpp, int i) {
  const uint8_t* p = row0 + static_cast<size_t>(i) * BX * bpp;
  int sum = p[0];
  if (BX == 2) sum += p[bpp];
  if (BY == 2) {
    const uint8_t* q = row1 + static_cast<size_t>(i) * BX * bpp;
    sum += q[0];
    if (BX == 2) sum += q[bpp];
  }
  return sum;
}

// Rounded half up: floor(S / D + 1/2) = (2 S + D) / (2 D) in integers (D = BX BY, S >= 0).
template <int BX, int BY>
inline int RoundedMean(int sum) {
  constexpr int D = BX * BY;
  return (2 * sum + D) / (2 * D);
}

// One channel as floats: the exact mean S / D (D a power of two, so exact in float) or, with
// round_pixels, the rounded one.
template <int BX, int BY>
void Channel(const uint8_t* __restrict row0, const uint8_t* __restrict row1, int bpp, int nx,
             bool round_pixels, float* __restrict dst) {
  constexpr float kInvD = 1.f / static_cast<float>(BX * BY);
  for (int i = 0; i < nx; ++i) {
    const int sum = BlockSum<BX, BY>(row0, row1, bpp, i);
    dst[i] = round_pixels ? static_cast<float>(RoundedMean<BX, BY>(sum)) : static_cast<float>(sum) * kInvD;
  }
}

// One channel as integer levels (round_pixels).
template <int BX, int BY>
void Levels(const uint8_t* __restrict row0, const uint8_t* __restrict row1, int bpp, int nx,
            uint8_t* __restrict dst) {
  for (int i = 0; i < nx; ++i)
    dst[i] = static_cast<uint8_t>(RoundedMean<BX, BY>(BlockSum<BX, BY>(row0, row1, bpp, i)));
}

// 1:1 from 4-byte pixels (rgba8, bgra8).
void Deinterleave4(const uint8_t* __restrict row, const int* offset, int nx, uint8_t* __restrict r,
                   uint8_t* __restrict g, uint8_t* __restrict b) {
  const int oR = offset[0], oG = offset[1], oB = offset[2];
  for (int i = 0; i < nx; ++i) {
    const uint8_t* p = row + static_cast<size_t>(i) * 4;
    r[i] = p[oR];
    g[i] = p[oG];
    b[i] = p[oB];
  }
}

}  // namespace

void ExactGridLevels(const uint8_t* frame, size_t step, const PackedLayout& layout, GridStep gx,
                     GridStep gy, int x_first, int sy, int nx, uint8_t* const planes[3]) {
  const int bpp = layout.bytes_per_pixel;
  const uint8_t* row0 = frame + static_cast<size_t>(sy) * step + static_cast<size_t>(x_first) * bpp;
  const uint8_t* row1 = gy == GridStep::kHalf ? row0 + step : row0;
  if (bpp == 3) {
    // Planes by byte offset: plane k holds byte k of each pixel, i.e. the channel at offset k.
    uint8_t* by_offset[3];
    for (int c = 0; c < 3; ++c) by_offset[layout.offset[c]] = planes[c];
    if (gx == GridStep::kCopy && gy == GridStep::kCopy) {
      DeinterleaveRgb(row0, nx, by_offset[0], by_offset[1], by_offset[2]);
      return;
    }
    if (gx == GridStep::kHalf) {
      // Both source rows split into planes first, then each 2x1 or 2x2 block summed per plane:
      // contiguous bytes, which vectorize.
      const int wide = 2 * nx;
      thread_local std::vector<uint8_t> planes;
      planes.resize(static_cast<size_t>(6) * wide);
      uint8_t* top = planes.data();
      uint8_t* bot = top + static_cast<size_t>(3) * wide;
      DeinterleaveRgb(row0, wide, top, top + wide, top + 2 * wide);
      if (gy == GridStep::kHalf) DeinterleaveRgb(row1, wide, bot, bot + wide, bot + 2 * wide);
      for (int k = 0; k < 3; ++k) {
        const uint8_t* __restrict t = top + static_cast<size_t>(k) * wide;
        const uint8_t* __restrict u = bot + static_cast<size_t>(k) * wide;
        uint8_t* __restrict o = by_offset[k];
        if (gy == GridStep::kHalf) {
          for (int i = 0; i < nx; ++i)
            o[i] = static_cast<uint8_t>((t[2 * i] + t[2 * i + 1] + u[2 * i] + u[2 * i + 1] + 2) >> 2);
        } else {
          for (int i = 0; i < nx; ++i) o[i] = static_cast<uint8_t>((t[2 * i] + t[2 * i + 1] + 1) >> 1);
        }
      }
      return;
    }
  }
  if (gx == GridStep::kCopy && gy == GridStep::kCopy) {
    Deinterleave4(row0, layout.offset, nx, planes[0], planes[1], planes[2]);
    return;
  }
  for (int c = 0; c < 3; ++c) {
    const uint8_t* a = row0 + layout.offset[c];
    const uint8_t* b = row1 + layout.offset[c];
    uint8_t* out = planes[c];
    if (gx == GridStep::kHalf && gy == GridStep::kHalf) Levels<2, 2>(a, b, bpp, nx, out);
    else if (gx == GridStep::kHalf) Levels<2, 1>(a, b, bpp, nx, out);
    else if (gy == GridStep::kHalf) Levels<1, 2>(a, b, bpp, nx, out);
    else Levels<1, 1>(a, b, bpp, nx, out);
  }
}

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
