// What every H.264 encoder of the module offers the binding: 4:2:0 frames in (the plane layout
// the encoder asks for), Annex B access units out, an IDR on request. Encoders are not thread
// safe; the binding runs at most one call on one encoder at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace htpv {

enum class ChromaLayout { kI420, kNv12 };

struct EncoderSettings {
  int width = 0;   // even
  int height = 0;  // even
  int bitrate_kbps = 0;
  double frame_rate = 0;  // the expected rate, for rate control only
};

// A 4:2:0 picture the caller owns: plane 0 luma; I420: planes 1 and 2 are U and V; NV12: plane 1
// holds U and V interleaved.
struct Yuv420View {
  uint8_t* planes[3] = {nullptr, nullptr, nullptr};
  int strides[3] = {0, 0, 0};
};

struct EncodedPacket {
  std::vector<uint8_t> data;  // Annex B: start codes before every NAL unit
  int64_t pts = 0;            // the pts of the frame it encodes (ms)
};

class H264Encoder {
 public:
  virtual ~H264Encoder() = default;
  virtual ChromaLayout layout() const = 0;
  // Encodes one frame; appends the packets that are ready (an encoder with a pipeline may hand a
  // frame's packet out on a later call). Throws std::runtime_error naming what failed.
  virtual void Encode(const Yuv420View& frame, int64_t pts, bool force_idr, std::vector<EncodedPacket>& out) = 0;
  // The rate pictures really come at, for rate control (a node's pictures follow its results, not
  // a fixed clock). False where the encoder cannot change it without reopening.
  virtual bool SetFrameRate(double fps) {
    (void)fps;
    return false;
  }
  // Packets still inside the encoder at the end of a stream.
  virtual void Flush(std::vector<EncodedPacket>& out) { (void)out; }
  // The library and codec that encode ("openh264 2.3.1", "libavcodec h264_v4l2m2m (/dev/video11)").
  virtual std::string Describe() const = 0;
};

}  // namespace htpv
