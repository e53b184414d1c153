// rgb8 to 4:2:0 (I420 or NV12), BT.601 limited range, the colour description the encoders write
// into the stream's VUI. Integer arithmetic in plain loops (no intrinsics): the same bytes on
// every CPU, vectorised by the compiler on x86-64 and AArch64 alike.
#pragma once

#include <cstdint>

#include "h264_encoder.h"

namespace htpv {

// width and height even; rgb rows are width * 3 bytes apart.
void RgbToYuv420(const uint8_t* rgb, int width, int height, ChromaLayout layout, const Yuv420View& out);

}  // namespace htpv
