// Encoders reached through FFmpeg's libavcodec: h264_v4l2m2m (a board's V4L2 memory-to-memory
// H.264 encoder, NV12 in) and libx264 (software, GPL: only when chosen). No B-frames, one access
// unit per frame, IDR on request; FFmpeg finds the V4L2 device itself.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "h264_encoder.h"

namespace htpv {

enum class LibavCodec { kV4l2m2m, kX264 };

std::unique_ptr<H264Encoder> CreateLibavEncoder(LibavCodec codec, const EncoderSettings& settings);
// "libavcodec 59.37.100"
std::string LibavcodecVersion();
// Which of the codecs this libavcodec was built with ("h264_v4l2m2m", "libx264").
std::vector<std::string> LibavH264Encoders();

}  // namespace htpv
