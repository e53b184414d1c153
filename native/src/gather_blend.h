// One channel of a source row blended horizontally at the input's sample positions (sync, pure,
// no N-API).
#pragma once

namespace htp {

// dst[i] = p[i0[i]] + (p[i1[i]] - p[i0[i]]) * w[i] for i < n: the resampler's scalar operations in
// its order (no fused multiply-add), so every path gives the same floats: eight at a time with
// AVX2 gathers where the CPU has them (checked at run time), four NEON lanes on AArch64, a plain
// loop elsewhere.
void GatherBlend(const float* p, const int* i0, const int* i1, const float* w, int n, float* dst);

}  // namespace htp
