// One channel of a source row blended horizontally at the input's sample positions (sync, pure,
// no N-API).
#pragma once
#include <vector>

namespace htp {

// Where each input pixel of a row samples the planar source row, planned once per frame.
struct GatherPlan {
  std::vector<int> i0, i1;  // indices into the planar row
  std::vector<float> w;     // weight of i1
  // Per block of eight input pixels: the start of a 16-value window of the row holding all their
  // samples, or -1 when they spread wider (a downscale of more than 2:1).
  std::vector<int> window;
};

// The plan for n input pixels; the indices must lie in [0, row length).
GatherPlan PlanGather(const int* i0, const int* i1, const float* w, int n);

// How many readable floats the planar row needs past its last value (the windows' reach).
constexpr int kGatherRowSlack = 16;

// dst[i] = p[i0[i]] + (p[i1[i]] - p[i0[i]]) * w[i]: the resampler's scalar operations in its
// order (no fused multiply-add), so every path gives the same floats. On x86-64 with AVX2
// (checked at run time) eight at a time, their samples permuted out of a 16-value window loaded
// from the row (AVX2 gathers for wider blocks: several times slower on CPUs with the Downfall
// microcode); four NEON lanes on AArch64; a plain loop elsewhere. `p` must hold
// kGatherRowSlack readable floats past the row.
void GatherBlend(const float* p, const GatherPlan& plan, float* dst);

}  // namespace htp
