// Module entry: the VideoEncoder class (video_encoder_js.h), the V4L2 probe (probeV4l2()) and
// what this build can encode with (libraries()), and for tests the colour conversion
// (convertToYuv420()).
#include <napi.h>

#include "openh264_encoder.h"
#include "rgb_to_yuv420.h"
#include "v4l2_probe.h"
#include "video_encoder_js.h"
#ifdef HTP_VIDEO_LIBAVCODEC
#include "libav_encoder.h"
#endif

namespace {

Napi::Array Strings(Napi::Env env, const std::vector<std::string>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (size_t i = 0; i < v.size(); ++i) a.Set(static_cast<uint32_t>(i), v[i]);
  return a;
}

Napi::Value ProbeV4l2(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string dir = info.Length() > 0 && info[0].IsString() ? info[0].As<Napi::String>().Utf8Value() : "/dev";
  const std::vector<htpv::V4l2Device> devices = htpv::ProbeV4l2Devices(dir);
  Napi::Array out = Napi::Array::New(env, devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    const htpv::V4l2Device& d = devices[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("path", d.path);
    o.Set("driver", d.driver);
    o.Set("card", d.card);
    o.Set("error", d.error);
    o.Set("memoryToMemory", d.memory_to_memory);
    o.Set("codedFormats", Strings(env, d.coded_formats));
    o.Set("rawFormats", Strings(env, d.raw_formats));
    o.Set("h264Encoder", d.h264_encoder);
    out.Set(static_cast<uint32_t>(i), o);
  }
  return out;
}

Napi::Value Libraries(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("openh264", htpv::OpenH264LibraryVersion());
#ifdef HTP_VIDEO_LIBAVCODEC
  o.Set("libavcodec", htpv::LibavcodecVersion());
  o.Set("libavcodecEncoders", Strings(env, htpv::LibavH264Encoders()));
#else
  o.Set("libavcodec", env.Null());
  o.Set("libavcodecEncoders", Napi::Array::New(env, 0));
#endif
  return o;
}

// Tests only: the colour conversion the encoders are fed by, so its bytes can be checked.
Napi::Value ConvertToYuv420(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 4 || !info[0].IsTypedArray() || !info[1].IsNumber() || !info[2].IsNumber() || !info[3].IsString()) {
    throw Napi::TypeError::New(env, "convertToYuv420(rgb: Uint8Array, width, height, 'i420' | 'nv12')");
  }
  const Napi::Uint8Array rgb = info[0].As<Napi::Uint8Array>();
  const int w = info[1].As<Napi::Number>().Int32Value();
  const int h = info[2].As<Napi::Number>().Int32Value();
  const bool nv12 = info[3].As<Napi::String>().Utf8Value() == "nv12";
  if (w < 2 || h < 2 || w % 2 || h % 2 || w > 8192 || h > 8192 || rgb.ByteLength() != static_cast<size_t>(w) * h * 3) {
    throw Napi::RangeError::New(env, "convertToYuv420: even width and height up to 8192, rgb of width * height * 3 bytes");
  }
  const size_t luma = static_cast<size_t>(w) * h;
  Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::New(env, luma + luma / 2);
  htpv::Yuv420View v;
  v.planes[0] = out.Data();
  v.strides[0] = w;
  v.planes[1] = out.Data() + luma;
  v.strides[1] = nv12 ? w : w / 2;
  v.planes[2] = out.Data() + luma + luma / 4;
  v.strides[2] = w / 2;
  htpv::RgbToYuv420(rgb.Data(), w, h, nv12 ? htpv::ChromaLayout::kNv12 : htpv::ChromaLayout::kI420, v);
  return out;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("VideoEncoder", htpv::VideoEncoderJs::Define(env));
  exports.Set("probeV4l2", Napi::Function::New(env, ProbeV4l2, "probeV4l2"));
  exports.Set("libraries", Napi::Function::New(env, Libraries, "libraries"));
  exports.Set("convertToYuv420", Napi::Function::New(env, ConvertToYuv420, "convertToYuv420"));
  return exports;
}

}  // namespace

NODE_API_MODULE(htp_video, Init)
