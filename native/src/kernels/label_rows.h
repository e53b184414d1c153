// Nearest-label rows of a label map resized to the camera's size (sync, pure, no N-API).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace htp {

// Where each output column of a row reads its grid row, planned once per map.
struct LabelColumnPlan {
  std::vector<int32_t> cols;  // grid column of each output column
  // Per block of 16 output columns: the first of 16 grid bytes holding all their labels, or -1
  // when they spread wider (a map shrunk by more than 16:15) or the grid row is narrower than 16.
  std::vector<int32_t> window;
  std::vector<uint8_t> shuffle;  // per block, 16 offsets into its window
};

// cols[0..n) must lie in [0, grid_width).
LabelColumnPlan PlanLabelColumns(const int32_t* cols, size_t n, size_t grid_width);

// dst[u] = src[plan.cols[u]] for every planned column: 16 at a time by a byte shuffle of the block's
// window (SSSE3 on x86-64, checked at run time; NEON TBL on AArch64), one by one elsewhere.
void GatherLabelRow(const uint8_t* src, const LabelColumnPlan& plan, uint8_t* dst);

}  // namespace htp
