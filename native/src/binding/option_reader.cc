#include "binding/option_reader.h"

#include <cmath>
#include <initializer_list>
#include <limits>

namespace htp {
namespace {

template <typename E>
E Coded(Napi::Env env, const std::string& code, const std::string& message) {
  E err = E::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

// Reads one JS object; `path` names it in messages ("options.preprocess").
class ObjectReader {
 public:
  ObjectReader(const Napi::Value& v, std::string path, std::string code)
      : env_(v.Env()), path_(std::move(path)), code_(std::move(code)) {
    if (!v.IsObject() || v.IsArray()) Fail(path_, "expected object");
    obj_ = v.As<Napi::Object>();
  }

  Napi::Value Get(const char* key) const { return obj_.Get(key); }
  std::string Path(const char* key) const { return path_ + "." + key; }

  [[noreturn]] void Fail(const std::string& at, const std::string& what) const {
    throw Coded<Napi::TypeError>(env_, code_, at + ": " + what);
  }
  [[noreturn]] void OutOfRange(const std::string& at, const std::string& what) const {
    throw Coded<Napi::RangeError>(env_, code_, at + ": " + what);
  }

  std::string String(const char* key) const {
    Napi::Value v = Get(key);
    if (!v.IsString()) Fail(Path(key), "expected string");
    return v.As<Napi::String>().Utf8Value();
  }
  double Number(const char* key) const {
    Napi::Value v = Get(key);
    if (!v.IsNumber()) Fail(Path(key), "expected number");
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(d)) OutOfRange(Path(key), "expected a finite number");
    return d;
  }
  // Ranges here only keep values representable and buffers sane; policy limits live in zod.
  int Int(const char* key, double lo, double hi = std::numeric_limits<int>::max()) const {
    const double d = Number(key);
    if (d != std::floor(d) || d < lo || d > hi)
      OutOfRange(Path(key), "expected an integer in [" + std::to_string(static_cast<long long>(lo)) + ", " +
                                std::to_string(static_cast<long long>(hi)) + "], got " + std::to_string(d));
    return static_cast<int>(d);
  }
  bool Bool(const char* key) const {
    Napi::Value v = Get(key);
    if (!v.IsBoolean()) Fail(Path(key), "expected boolean");
    return v.As<Napi::Boolean>().Value();
  }
  // Index of the value among `names`.
  size_t OneOf(const char* key, std::initializer_list<const char*> names) const {
    const std::string s = String(key);
    size_t i = 0;
    std::string all;
    for (const char* n : names) {
      if (s == n) return i;
      all += (i++ ? "|" : "") + std::string(n);
    }
    OutOfRange(Path(key), "expected " + all + ", got '" + s + "'");
  }
  ObjectReader Object(const char* key) const { return ObjectReader(Get(key), Path(key), code_); }
  // A required key whose value may be null (and only then is absent in effect).
  bool IsNull(const char* key) const {
    Napi::Value v = Get(key);
    if (v.IsUndefined()) Fail(Path(key), "expected object or null, got undefined");
    return v.IsNull();
  }
  void Triple(const char* key, float out[3]) const {
    Napi::Value v = Get(key);
    if (!v.IsArray() || v.As<Napi::Array>().Length() != 3) Fail(Path(key), "expected an array of 3 numbers");
    Napi::Array a = v.As<Napi::Array>();
    for (uint32_t i = 0; i < 3; ++i) {
      Napi::Value e = a.Get(i);
      if (!e.IsNumber()) Fail(Path(key) + "[" + std::to_string(i) + "]", "expected number");
      out[i] = e.As<Napi::Number>().FloatValue();
    }
  }
  KeyValues StringMap(const char* key) const { return ObjectReader(Get(key), Path(key), code_).Entries(); }
  KeyValues Entries() const {
    KeyValues kv;
    Napi::Array keys = obj_.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      const std::string k = keys.Get(i).As<Napi::String>().Utf8Value();
      kv.emplace_back(k, String(k.c_str()));
    }
    return kv;
  }
  std::vector<std::pair<std::string, int64_t>> DimMap(const char* key) const {
    ObjectReader m(Get(key), Path(key), code_);
    std::vector<std::pair<std::string, int64_t>> out;
    Napi::Array keys = m.obj_.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      const std::string k = keys.Get(i).As<Napi::String>().Utf8Value();
      out.emplace_back(k, m.Int(k.c_str(), 1));
    }
    return out;
  }

 private:
  Napi::Env env_;
  Napi::Object obj_;
  std::string path_, code_;
};

// The sensor_msgs names of src/core/imageEncoding.ts, canonical spellings only: TypeScript resolves
// aliases before a frame gets here (the engine tests check both lists agree).
Encoding ParseEncoding(const ObjectReader& r) {
  static const Encoding by_index[] = {Encoding::kRgb8, Encoding::kBgr8, Encoding::kRgba8, Encoding::kBgra8,
                                      Encoding::kMono8, Encoding::kUyvy, Encoding::kYuyv, Encoding::kNv12};
  return by_index[r.OneOf("encoding", {"rgb8", "bgr8", "rgba8", "bgra8", "mono8", "yuv422", "yuyv", "nv12"})];
}

}  // namespace

Napi::Error CodedError(Napi::Env env, const std::string& code, const std::string& message) {
  return Coded<Napi::Error>(env, code, message);
}

LoadSpec ReadLoadSpec(const Napi::Value& options) {
  const ObjectReader o(options, "options", "ERR_INVALID_OPTIONS");
  LoadSpec s;
  s.model_path = o.String("modelPath");
  {
    static const char* const kProviders[] = {"cpu", "htp", "gpu"};
    s.provider = kProviders[o.OneOf("provider", {"cpu", "htp", "gpu"})];
  }
  s.threads = o.Int("threads", 0);
  s.session_config = o.StringMap("sessionConfig");
  s.free_dimensions = o.DimMap("freeDimensions");

  const ObjectReader in = o.Object("input");
  s.input_name = in.String("name");
  s.input_type = in.Int("elementType", 1, 64);
  s.batch = in.Int("batch", 1, kMaxBatch);
  PreprocessSpec& p = s.preprocess;
  p.dst_width = in.Int("width", 1);
  p.dst_height = in.Int("height", 1);
  p.channels = in.Int("channels", 1, 3);
  if (p.channels == 2) in.OutOfRange(in.Path("channels"), "expected 1 or 3");
  p.nchw = in.OneOf("layout", {"nchw", "nhwc"}) == 0;
  switch (s.input_type) {
    case kElementFloat: p.out = OutType::kFloat32; break;
    case kElementUint8: p.out = OutType::kUint8; break;
    case kElementInt8: p.out = OutType::kInt8; break;
    default: in.OutOfRange(in.Path("elementType"), "expected 1 (float32), 2 (uint8) or 3 (int8)");
  }

  const ObjectReader pre = o.Object("preprocess");
  p.bgr = pre.OneOf("colorOrder", {"rgb", "bgr"}) == 1;
  p.letterbox = pre.OneOf("resize", {"letterbox", "stretch"}) == 0;
  p.pad_value = static_cast<float>(pre.Number("padValue"));
  p.round_pixels = pre.Bool("roundPixels");
  p.exact_grid = pre.Bool("exactGrid");
  pre.Triple("mean", p.mean);
  pre.Triple("std", p.std);
  if (pre.IsNull("quantization")) {
    if (p.out != OutType::kFloat32)
      pre.Fail(pre.Path("quantization"), "expected object for a uint8 or int8 input, got null");
    p.q_scale = 1.f;
    p.q_zero = 0;
  } else {
    const ObjectReader q = pre.Object("quantization");
    p.q_scale = static_cast<float>(q.Number("scale"));
    if (!(p.q_scale > 0.f)) q.OutOfRange(q.Path("scale"), "expected a positive number");
    p.q_zero = q.Int("zeroPoint", -128, 255);
  }

  // The QNN provider's options, for provider htp (its HTP backend) or gpu (its GPU backend).
  if (o.IsNull("qnn")) {
    if (s.provider != "cpu") o.Fail(o.Path("qnn"), "expected object for provider " + s.provider + ", got null");
  } else {
    const ObjectReader h = o.Object("qnn");
    s.provider_library = h.String("providerLibrary");
    s.context_cache_path = h.String("contextCachePath");
    s.context_embed = h.Bool("contextEmbed");
    s.provider_options = h.StringMap("providerOptions");
  }
  if (!o.IsNull("outputPeaks")) {
    const ObjectReader k = o.Object("outputPeaks");
    s.peaks_output = k.String("output");
    if (s.peaks_output.empty()) k.OutOfRange(k.Path("output"), "expected an output name");
    s.peaks_channels_last = k.OneOf("layout", {"nchw", "nhwc"}) == 1;
  }
  return s;
}

FrameView ReadFrame(const Napi::Value& frame, Napi::Uint8Array* data) {
  const ObjectReader f(frame, "frame", "ERR_FRAME_INVALID");
  Napi::Value d = f.Get("data");
  if (!d.IsTypedArray() || d.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array)
    f.Fail(f.Path("data"), "expected Uint8Array");
  *data = d.As<Napi::Uint8Array>();
  FrameView v;
  v.data = data->Data();
  v.size = data->ByteLength();
  v.width = f.Int("width", 1);
  v.height = f.Int("height", 1);
  v.step = f.Int("step", 1);
  v.encoding = ParseEncoding(f);
  return v;
}

Roi ReadRoi(const Napi::Value& roi) {
  if (roi.IsNull()) return Roi{};
  const ObjectReader r(roi, "roi", "ERR_ROI_INVALID");
  Roi out;
  out.x = r.Number("x");
  out.y = r.Number("y");
  out.width = r.Number("width");
  out.height = r.Number("height");
  // Geometry (integers inside the frame, or an overlapping region) is Preprocess's to check.
  out.pad_outside = r.OneOf("outside", {"reject", "pad"}) == 1;
  return out;
}

KeyValues ReadStringMap(const Napi::Value& map, const std::string& path) {
  return ObjectReader(map, path, "ERR_INVALID_OPTIONS").Entries();
}

}  // namespace htp
