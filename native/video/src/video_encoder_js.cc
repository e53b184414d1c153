#include "video_encoder_js.h"

#include <stdexcept>
#include <string>

#include "encode_worker.h"
#include "fault_switch.h"
#include "openh264_encoder.h"
#ifdef HTP_VIDEO_LIBAVCODEC
#include "libav_encoder.h"
#endif

namespace htpv {
namespace {

int IntOption(const Napi::Object& o, const char* key, int lo, int hi) {
  const Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw Napi::TypeError::New(o.Env(), std::string("VideoEncoder: ") + key + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= lo && d <= hi) || d != static_cast<int>(d)) {
    throw Napi::RangeError::New(o.Env(), std::string("VideoEncoder: ") + key + " must be an integer in [" +
                                             std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<int>(d);
}

std::unique_ptr<H264Encoder> Create(const std::string& codec, const EncoderSettings& s) {
  if (codec == "openh264") return CreateOpenH264Encoder(s);
#ifdef HTP_VIDEO_LIBAVCODEC
  if (codec == "v4l2m2m") return CreateLibavEncoder(LibavCodec::kV4l2m2m, s);
  if (codec == "x264") return CreateLibavEncoder(LibavCodec::kX264, s);
#else
  if (codec == "v4l2m2m" || codec == "x264") {
    throw std::runtime_error("the video addon was built without libavcodec (HTP_VIDEO_LIBAVCODEC=OFF): no " + codec);
  }
#endif
  throw std::runtime_error("unknown codec '" + codec + "' (openh264, x264, v4l2m2m)");
}

}  // namespace

Napi::Function VideoEncoderJs::Define(Napi::Env env) {
  return DefineClass(env, "VideoEncoder",
                     {InstanceMethod<&VideoEncoderJs::Encode>("encode"),
                      InstanceMethod<&VideoEncoderJs::Describe>("describe"),
                      InstanceMethod<&VideoEncoderJs::SetFrameRate>("setFrameRate"),
                      InstanceMethod<&VideoEncoderJs::Close>("close")});
}

VideoEncoderJs::VideoEncoderJs(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VideoEncoderJs>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) throw Napi::TypeError::New(env, "VideoEncoder: options object expected");
  const Napi::Object o = info[0].As<Napi::Object>();
  const Napi::Value codec = o.Get("codec");
  if (!codec.IsString()) throw Napi::TypeError::New(env, "VideoEncoder: codec must be a string");
  EncoderSettings s;
  s.width = IntOption(o, "width", 16, 8192);
  s.height = IntOption(o, "height", 16, 8192);
  if (s.width % 2 != 0 || s.height % 2 != 0) throw Napi::RangeError::New(env, "VideoEncoder: width and height must be even (4:2:0)");
  s.bitrate_kbps = IntOption(o, "bitrateKbps", 16, 200000);
  s.frame_rate = IntOption(o, "frameRate", 1, 240);
  auto state = std::make_shared<EncoderState>();
  try {
    state->encoder = Create(codec.As<Napi::String>().Utf8Value(), s);
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, std::string("VideoEncoder: ") + e.what());
  }
  state->description = state->encoder->Describe();
  state->width = s.width;
  state->height = s.height;
  const size_t luma = static_cast<size_t>(s.width) * s.height;
  state->yuv.resize(luma + luma / 2);
  uint8_t* base = state->yuv.data();
  state->view.planes[0] = base;
  state->view.strides[0] = s.width;
  if (state->encoder->layout() == ChromaLayout::kI420) {
    state->view.planes[1] = base + luma;
    state->view.planes[2] = base + luma + luma / 4;
    state->view.strides[1] = state->view.strides[2] = s.width / 2;
  } else {
    state->view.planes[1] = base + luma;
    state->view.strides[1] = s.width;
  }
  const Napi::Value fail_after = o.Get("testFailAfterFrames");
  if (fail_after.IsNumber() && TestFaultsArmed()) state->fail_after = fail_after.As<Napi::Number>().Int64Value();
  state_ = std::move(state);
}

VideoEncoderJs::~VideoEncoderJs() {
  // A call still running keeps the state alive and frees the encoder when it returns.
  if (state_) state_->closed = true;
}

Napi::Value VideoEncoderJs::Encode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (state_->closed || !state_->encoder) throw Napi::Error::New(env, "VideoEncoder: encode after close");
  if (state_->busy) throw Napi::Error::New(env, "VideoEncoder: a frame is still being encoded (one call at a time)");
  if (info.Length() < 3 || !info[0].IsTypedArray() || !info[1].IsNumber() || !info[2].IsBoolean()) {
    throw Napi::TypeError::New(env, "VideoEncoder.encode(rgb: Uint8Array, pts: number, forceIdr: boolean)");
  }
  const Napi::TypedArray array = info[0].As<Napi::TypedArray>();
  if (array.TypedArrayType() != napi_uint8_array) throw Napi::TypeError::New(env, "VideoEncoder.encode: rgb must be a Uint8Array");
  const Napi::Uint8Array rgb = info[0].As<Napi::Uint8Array>();
  const size_t expected = static_cast<size_t>(state_->width) * state_->height * 3;
  if (rgb.ByteLength() != expected) {
    throw Napi::RangeError::New(env, "VideoEncoder.encode: rgb holds " + std::to_string(rgb.ByteLength()) + " bytes, " +
                                         std::to_string(state_->width) + "x" + std::to_string(state_->height) +
                                         " rgb8 is " + std::to_string(expected));
  }
  const int64_t pts = info[1].As<Napi::Number>().Int64Value();
  return StartEncode(env, state_, rgb, pts, info[2].As<Napi::Boolean>().Value());
}

Napi::Value VideoEncoderJs::SetFrameRate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) throw Napi::TypeError::New(env, "VideoEncoder.setFrameRate(fps: number)");
  // Between encodes only: the worker owns the encoder while a frame is being encoded.
  if (state_->closed || !state_->encoder || state_->busy) return Napi::Boolean::New(env, false);
  return Napi::Boolean::New(env, state_->encoder->SetFrameRate(info[0].As<Napi::Number>().DoubleValue()));
}

Napi::Value VideoEncoderJs::Describe(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), state_->description);
}

Napi::Value VideoEncoderJs::Close(const Napi::CallbackInfo& info) {
  state_->closed = true;
  if (!state_->busy) state_->encoder.reset();
  return info.Env().Undefined();
}

}  // namespace htpv
