// One channel of a source row blended horizontally at the input's sample positions (sync, pure,
// no N-API).
#pragma once
#include <cstddef>
#include <vector>

namespace htp {

// Where each input pixel of a row samples the planar source row, planned once per frame.
struct GatherPlan {
  std::vector<int> i0, i1;  // indices into the planar row
  std::vector<float> w;     // weight of i1
  // Per block of eight input pixels: the start of a 16-value window of the row holding all their
  // samples, or -1 when they spread wider (a downscale of more than 2:1).
  std::vector<int> window;
  // Per input pixel of a windowed block, where its i0 / i1 sample sits in the window: the offset's
  // low three bits as they are, its fourth bit moved to the sign (0 in blocks without a window).
  std::vector<int> select0, select1;
  // The same per block of sixteen, for AVX-512 (planned only where it runs): a 32-value window
  // or -1, and each sample's offset in it (0..31; 0 in blocks without a window).
  std::vector<int> window16;
  std::vector<int> offset0, offset1;
};

// The plan for n input pixels; the indices must lie in [0, row length).
GatherPlan PlanGather(const int* i0, const int* i1, const float* w, int n);

// How many readable floats the planar row needs past its last value (the windows' reach).
constexpr int kGatherRowSlack = 32;

// For the three planes p, p + p_stride, p + 2 p_stride of a row, into dst, dst + dst_stride,
// dst + 2 dst_stride: dst[i] = p[i0[i]] + (p[i1[i]] - p[i0[i]]) * w[i], the resampler's scalar
// operations in its order (no fused multiply-add), so every path gives the same floats. On x86-64
// with AVX-512 (checked at run time) sixteen at a time, their samples taken out of a 32-value
// window of the row by one two-register permute each; with AVX2 eight at a time, permuted out of a
// 16-value window (gathers for wider blocks: several times slower on CPUs with the Downfall
// microcode), the plan's selects shared by the three planes; four NEON lanes on AArch64; a plain
// loop elsewhere. Each plane must have kGatherRowSlack readable floats past the row (for
// the first two, the next plane's values do).
void GatherBlend3(const float* p, size_t p_stride, const GatherPlan& plan, float* dst,
                  size_t dst_stride);

}  // namespace htp
