#include "rgb_to_yuv420.h"

namespace htpv {
namespace {

// BT.601 "studio swing" coefficients scaled by 256 (the common integer form): Y in [16, 235],
// U and V in [16, 240]. Chroma comes from the sum of a 2x2 block, so its coefficients take the
// four samples at once (>> 10 instead of >> 8).
inline uint8_t Luma(int r, int g, int b) { return static_cast<uint8_t>(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16); }
inline uint8_t ChromaU(int r4, int g4, int b4) {
  return static_cast<uint8_t>(((-38 * r4 - 74 * g4 + 112 * b4 + 512) >> 10) + 128);
}
inline uint8_t ChromaV(int r4, int g4, int b4) {
  return static_cast<uint8_t>(((112 * r4 - 94 * g4 - 18 * b4 + 512) >> 10) + 128);
}

}  // namespace

void RgbToYuv420(const uint8_t* rgb, int width, int height, ChromaLayout layout, const Yuv420View& out) {
  const int row_bytes = width * 3;
  for (int y = 0; y < height; ++y) {
    const uint8_t* src = rgb + static_cast<int64_t>(y) * row_bytes;
    uint8_t* dst = out.planes[0] + static_cast<int64_t>(y) * out.strides[0];
    for (int x = 0; x < width; ++x) dst[x] = Luma(src[3 * x], src[3 * x + 1], src[3 * x + 2]);
  }
  for (int cy = 0; cy < height / 2; ++cy) {
    const uint8_t* top = rgb + static_cast<int64_t>(2 * cy) * row_bytes;
    const uint8_t* bottom = top + row_bytes;
    for (int cx = 0; cx < width / 2; ++cx) {
      const int i = 6 * cx;
      const int r4 = top[i] + top[i + 3] + bottom[i] + bottom[i + 3];
      const int g4 = top[i + 1] + top[i + 4] + bottom[i + 1] + bottom[i + 4];
      const int b4 = top[i + 2] + top[i + 5] + bottom[i + 2] + bottom[i + 5];
      if (layout == ChromaLayout::kI420) {
        out.planes[1][static_cast<int64_t>(cy) * out.strides[1] + cx] = ChromaU(r4, g4, b4);
        out.planes[2][static_cast<int64_t>(cy) * out.strides[2] + cx] = ChromaV(r4, g4, b4);
      } else {
        uint8_t* uv = out.planes[1] + static_cast<int64_t>(cy) * out.strides[1] + 2 * cx;
        uv[0] = ChromaU(r4, g4, b4);
        uv[1] = ChromaV(r4, g4, b4);
      }
    }
  }
}

}  // namespace htpv
