// The software encoder: Cisco's OpenH264 (BSD-2-Clause), Constrained Baseline (so no B-frames),
// one thread, no frame skipping (every frame in gives one access unit out), SPS and PPS before
// every IDR, BT.601 limited range written into the VUI.
#pragma once

#include <memory>

#include "h264_encoder.h"

namespace htpv {

std::unique_ptr<H264Encoder> CreateOpenH264Encoder(const EncoderSettings& settings);
// "2.3.1": the library the process loaded.
std::string OpenH264LibraryVersion();

}  // namespace htpv
