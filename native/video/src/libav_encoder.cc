#include "libav_encoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

#include <stdexcept>

namespace htpv {
namespace {

std::string AvError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, text, sizeof text);
  return text;
}

const char* CodecName(LibavCodec codec) { return codec == LibavCodec::kV4l2m2m ? "h264_v4l2m2m" : "libx264"; }

class LibavEncoder final : public H264Encoder {
 public:
  LibavEncoder(LibavCodec codec, const EncoderSettings& s) : codec_(codec) {
    const AVCodec* c = avcodec_find_encoder_by_name(CodecName(codec));
    if (c == nullptr) throw std::runtime_error(std::string("libavcodec was built without ") + CodecName(codec));
    ctx_ = avcodec_alloc_context3(c);
    if (ctx_ == nullptr) throw std::runtime_error("avcodec_alloc_context3 failed");
    ctx_->width = s.width;
    ctx_->height = s.height;
    ctx_->pix_fmt = codec == LibavCodec::kV4l2m2m ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P;
    ctx_->time_base = AVRational{1, 1000};  // pts in milliseconds
    ctx_->framerate = AVRational{static_cast<int>(s.frame_rate * 1000), 1000};
    ctx_->bit_rate = static_cast<int64_t>(s.bitrate_kbps) * 1000;
    ctx_->gop_size = 1 << 20;  // IDRs come when the caller asks
    ctx_->max_b_frames = 0;    // Foxglove decodes no B-frames
    ctx_->thread_count = 1;
    ctx_->flags |= AV_CODEC_FLAG_LOW_DELAY;
    ctx_->color_range = AVCOL_RANGE_MPEG;
    ctx_->colorspace = AVCOL_SPC_SMPTE170M;
    ctx_->color_primaries = AVCOL_PRI_SMPTE170M;
    ctx_->color_trc = AVCOL_TRC_SMPTE170M;
    if (codec == LibavCodec::kX264) {
      av_opt_set(ctx_->priv_data, "preset", "ultrafast", 0);
      av_opt_set(ctx_->priv_data, "tune", "zerolatency", 0);
      av_opt_set_int(ctx_->priv_data, "forced-idr", 1, 0);
    }
    const int rv = avcodec_open2(ctx_, c, nullptr);
    if (rv < 0) {
      avcodec_free_context(&ctx_);
      throw std::runtime_error(std::string("avcodec_open2(") + CodecName(codec) + "): " + AvError(rv));
    }
    frame_ = av_frame_alloc();
    packet_ = av_packet_alloc();
    if (frame_ == nullptr || packet_ == nullptr) throw std::runtime_error("av_frame_alloc/av_packet_alloc failed");
    frame_->format = ctx_->pix_fmt;
    frame_->width = s.width;
    frame_->height = s.height;
  }

  ~LibavEncoder() override {
    av_packet_free(&packet_);
    av_frame_free(&frame_);
    avcodec_free_context(&ctx_);
  }

  ChromaLayout layout() const override { return codec_ == LibavCodec::kV4l2m2m ? ChromaLayout::kNv12 : ChromaLayout::kI420; }

  void Encode(const Yuv420View& view, int64_t pts, bool force_idr, std::vector<EncodedPacket>& out) override {
    // The frame borrows the caller's planes: libavcodec copies them (x264 into its own pictures,
    // v4l2m2m into the device's buffers) before avcodec_send_frame returns.
    av_frame_unref(frame_);
    frame_->format = ctx_->pix_fmt;
    frame_->width = ctx_->width;
    frame_->height = ctx_->height;
    for (int i = 0; i < 3; ++i) {
      frame_->data[i] = view.planes[i];
      frame_->linesize[i] = view.strides[i];
    }
    frame_->pts = pts;
    frame_->pict_type = force_idr ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    frame_->key_frame = force_idr ? 1 : 0;
    const int rv = avcodec_send_frame(ctx_, frame_);
    for (int i = 0; i < 3; ++i) frame_->data[i] = nullptr;
    if (rv < 0) throw std::runtime_error(std::string("avcodec_send_frame(") + CodecName(codec_) + "): " + AvError(rv));
    Drain(out);
  }

  void Flush(std::vector<EncodedPacket>& out) override {
    if (avcodec_send_frame(ctx_, nullptr) >= 0) Drain(out);
  }

  std::string Describe() const override { return LibavcodecVersion() + " " + CodecName(codec_); }

 private:
  void Drain(std::vector<EncodedPacket>& out) {
    for (;;) {
      const int rv = avcodec_receive_packet(ctx_, packet_);
      if (rv == AVERROR(EAGAIN) || rv == AVERROR_EOF) return;
      if (rv < 0) throw std::runtime_error(std::string("avcodec_receive_packet(") + CodecName(codec_) + "): " + AvError(rv));
      EncodedPacket p;
      p.pts = packet_->pts;
      p.data.assign(packet_->data, packet_->data + packet_->size);
      av_packet_unref(packet_);
      out.push_back(std::move(p));
    }
  }

  LibavCodec codec_;
  AVCodecContext* ctx_ = nullptr;
  AVFrame* frame_ = nullptr;
  AVPacket* packet_ = nullptr;
};

}  // namespace

std::unique_ptr<H264Encoder> CreateLibavEncoder(LibavCodec codec, const EncoderSettings& settings) {
  // x264 prints its statistics at every close; failures reach the caller as exceptions, and
  // FFmpeg's own error lines (a V4L2 device refusing a format) stay, for a board's log.
  av_log_set_level(AV_LOG_ERROR);
  return std::make_unique<LibavEncoder>(codec, settings);
}

std::string LibavcodecVersion() {
  const unsigned v = avcodec_version();
  return "libavcodec " + std::to_string(AV_VERSION_MAJOR(v)) + "." + std::to_string(AV_VERSION_MINOR(v)) + "." +
         std::to_string(AV_VERSION_MICRO(v));
}

std::vector<std::string> LibavH264Encoders() {
  std::vector<std::string> names;
  for (const LibavCodec c : {LibavCodec::kV4l2m2m, LibavCodec::kX264}) {
    if (avcodec_find_encoder_by_name(CodecName(c)) != nullptr) names.emplace_back(CodecName(c));
  }
  return names;
}

}  // namespace htpv
