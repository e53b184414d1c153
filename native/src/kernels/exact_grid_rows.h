// Input rows read straight from packed 8-bit camera bytes when the resize lands on the source
// pixel grid exactly (sync, pure, no N-API; used by bilinear_resample.cc).
//
// Two scales are common enough on robots to matter and sample the source on its own grid:
//  - 1:1 (a 640x480 camera into a 640x640 letterbox): every input pixel is one source pixel;
//  - 1:2 (1280x720 into 640x640): every input pixel is the mean of a 2x2 block.
// The general separable bilinear code gives, for these, exactly the values computed here (the
// weights are 0 or 0.5, every partial sum is exact in float), so the fast rows are bit-identical
// to it; they only skip the per-pixel float blends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace htp {

// Byte layout of a packed 8-bit color pixel: bytes per pixel and where R, G and B are.
struct PackedLayout {
  int bytes_per_pixel;
  int offset[3];  // r, g, b
};

enum class GridStep { kNone, kCopy, kHalf };

// Which exact grid (if any) one axis follows: positions i0 / i1 and weights w1 as MakeAxis made
// them (i1 = i0 + 1 and w1 = 0.5 for a 1:2 step; w1 = 0 and consecutive i0 for 1:1).
GridStep ExactGridStep(const std::vector<int>& i0, const std::vector<int>& i1, const std::vector<float>& w1);

// Writes one input row of nx pixels as three planar float rows (r, g, b at dst, dst + nx,
// dst + 2 nx), starting at source column x_first; rows sy (and sy + 1 for kHalf vertically).
// round_pixels: as the general path, the blended value rounded half up to an integer.
void ExactGridRow(const uint8_t* frame, size_t step, const PackedLayout& layout, GridStep gx,
                  GridStep gy, int x_first, int sy, int nx, bool round_pixels, float* dst);

// The same row with round_pixels, as the integer levels 0..255 it rounds to: nx bytes of r, g
// and b at planes[0], planes[1] and planes[2] (what a quantized input's lookup table takes, with
// no float in between; or the input tensor's own rows when its lookup is the identity).
void ExactGridLevels(const uint8_t* frame, size_t step, const PackedLayout& layout, GridStep gx,
                     GridStep gy, int x_first, int sy, int nx, uint8_t* const planes[3]);

}  // namespace htp
