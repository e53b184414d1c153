#include "engine_session.h"

#include <sys/stat.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <chrono>
#include <cstring>
#include <map>

#include "engine_error.h"
#include "ort_env.h"
#include "onnxruntime_session_options_config_keys.h"

namespace htp {
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

bool FileExists(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

const char* TypeName(ONNXTensorElementDataType t) {
  switch (t) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: return "float32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return "float16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8: return "uint8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8: return "int8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16: return "uint16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16: return "int16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return "int32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return "int64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return "bool";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE: return "float64";
    default: return "unsupported";
  }
}

std::string ShapeString(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Maps an ORT failure during session creation to our stable codes.
EngineError MapLoadError(const Ort::Exception& e, const LoadOptions& o) {
  const std::string msg = e.what();
  switch (e.GetOrtErrorCode()) {
    case ORT_NO_SUCHFILE: return EngineError("ERR_MODEL_NOT_FOUND", "model file " + o.model_path + ": " + msg);
    case ORT_INVALID_PROTOBUF:
    case ORT_INVALID_GRAPH:
    case ORT_NO_MODEL:
    case ORT_MODEL_LOADED:
      return EngineError("ERR_MODEL_INVALID", "model " + o.model_path + " could not be loaded: " + msg);
    default: break;
  }
  if (o.require_accelerator && msg.find("fallback") != std::string::npos)
    return EngineError("ERR_ACCELERATOR_FALLBACK", "model " + o.model_path +
                                                      " does not run entirely on the accelerator: " + msg);
  const std::string hint = o.provider == "htp"
                               ? " (provider htp: HTP v68 needs a fully quantized QDQ model with static shapes; "
                                 "a graph too large for the VTCM can fail to finalize: try htp.vtcm_mb)"
                               : "";
  return EngineError("ERR_MODEL_INVALID", "model " + o.model_path + " could not be loaded: " + msg + hint);
}

IoInfo Describe(const std::string& name, const Ort::TypeInfo& ti) {
  IoInfo io;
  io.name = name;
  if (ti.GetONNXType() != ONNX_TYPE_TENSOR) {
    io.type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    return io;
  }
  auto t = ti.GetTensorTypeAndShapeInfo();
  io.type = t.GetElementType();
  io.dims = t.GetShape();
  std::vector<const char*> sym(io.dims.size(), nullptr);
  if (!sym.empty()) t.GetSymbolicDimensions(sym.data(), sym.size());
  for (auto* s : sym) io.symbolic.emplace_back(s ? s : "");
  return io;
}

}  // namespace

SessionCore::SessionCore(const LoadOptions& o) : opts(o) {
  if (!FileExists(o.model_path))
    throw EngineError("ERR_MODEL_NOT_FOUND", "model file " + o.model_path + " does not exist or is not a file");
  Ort::Env& env = OrtEnvironment();
  Ort::SessionOptions so;
  so.SetIntraOpNumThreads(o.threads);
  so.SetInterOpNumThreads(1);
  so.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_ENABLE_ALL);
  so.AddConfigEntry(kOrtSessionOptionsRecordEpGraphAssignmentInfo, "1");
  for (const auto& [k, v] : o.session_config) so.AddConfigEntry(k.c_str(), v.c_str());
  std::string path = o.model_path;
  // We always run batch 1 at the manifest's size. The HTP compiles static graphs only: a symbolic
  // batch (or a symbolic size the manifest fixes) would make the provider silently decline every
  // node. On the CPU, static shapes give the kernels (and results, bit for bit) of the same model
  // exported with fixed shapes. Pin them, read from a cheap probe session.
  try {
    Ort::SessionOptions probe_opts;
    probe_opts.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_DISABLE_ALL);
    Ort::Session probe(env, o.model_path.c_str(), probe_opts);
    for (size_t i = 0; i < probe.GetInputCount(); ++i) {
      IoInfo io = Describe("", probe.GetInputTypeInfo(i));
      if (io.dims.size() != 4) continue;
      const bool nhwc = o.layout == "nhwc" || (o.layout == "auto" && (io.dims[3] == 3 || io.dims[3] == 1) &&
                                               !(io.dims[1] == 3 || io.dims[1] == 1));
      const int64_t fixed[4] = {1, nhwc ? o.pre_height : -1, nhwc ? o.pre_width : o.pre_height,
                                nhwc ? -1 : o.pre_width};
      for (size_t d = 0; d < 4; ++d)
        if (!io.symbolic[d].empty() && io.dims[d] < 0 && fixed[d] > 0)
          so.AddFreeDimensionOverrideByName(io.symbolic[d].c_str(), fixed[d]);
    }
  } catch (const Ort::Exception&) {
    // The real load below reports the problem with the right code.
  }
  if (o.provider == "htp") {
    auto devices = PluginEpDevices("QNNExecutionProvider", o.provider_library, "QNNExecutionProvider");
    std::vector<Ort::ConstEpDevice> one{devices.front()};
    std::unordered_map<std::string, std::string> kv(o.ep_options.begin(), o.ep_options.end());
    try {
      so.AppendExecutionProvider_V2(env, one, kv);
    } catch (const Ort::Exception& e) {
      throw EngineError("ERR_PROVIDER_UNAVAILABLE", std::string("QNN provider refused its options: ") + e.what());
    }
    if (o.require_accelerator) so.AddConfigEntry(kOrtSessionOptionsDisableCPUEPFallback, "1");
    if (!o.context_cache_path.empty()) {
      if (FileExists(o.context_cache_path)) {
        path = o.context_cache_path;
        model_source = "context_cache";
      } else {
        so.AddConfigEntry(kOrtSessionOptionEpContextEnable, "1");
        so.AddConfigEntry(kOrtSessionOptionEpContextFilePath, o.context_cache_path.c_str());
        so.AddConfigEntry(kOrtSessionOptionEpContextEmbedMode, o.context_embed ? "1" : "0");
      }
    }
  }
  try {
    session = std::make_unique<Ort::Session>(env, path.c_str(), so);
  } catch (const Ort::Exception& e) {
    throw MapLoadError(e, o);
  }
  if (model_source == "onnx" && !o.context_cache_path.empty() && o.provider == "htp")
    context_cache_written = FileExists(o.context_cache_path);

  Ort::AllocatorWithDefaultOptions alloc;
  for (size_t i = 0; i < session->GetInputCount(); ++i)
    inputs.push_back(Describe(session->GetInputNameAllocated(i, alloc).get(), session->GetInputTypeInfo(i)));
  for (size_t i = 0; i < session->GetOutputCount(); ++i)
    outputs.push_back(Describe(session->GetOutputNameAllocated(i, alloc).get(), session->GetOutputTypeInfo(i)));

  // Where ORT placed each node, from its own partitioning record.
  try {
    std::map<std::string, int> counts;
    for (const auto& sg : session->GetEpGraphAssignmentInfo()) {
      const std::string ep = sg.GetEpName();
      for (const auto& n : sg.GetNodes()) {
        counts[ep] += 1;
        if (ep == "CPUExecutionProvider") fallback.push_back({n.GetName(), n.GetOperatorType(), ep});
      }
    }
    for (auto& [k, v] : counts) assignment.push_back({k, v});
    assignment_known = true;
  } catch (const Ort::Exception& e) {
    assignment_note = std::string("ONNX Runtime gave no assignment record: ") + e.what();
  }
  if (o.provider == "htp" && o.require_accelerator && !fallback.empty()) {
    std::string list;
    for (size_t i = 0; i < fallback.size(); ++i)
      list += (i ? ", " : "") + fallback[i].name + " (" + fallback[i].op_type + ")";
    throw EngineError("ERR_ACCELERATOR_FALLBACK", std::to_string(fallback.size()) + " node(s) of " + o.model_path +
                                                      " fell back to the CPU: " + list);
  }

  // The image input and how to fill it.
  size_t idx = inputs.size();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (o.input_name.empty() ? inputs[i].dims.size() == 4 : inputs[i].name == o.input_name) {
      idx = i;
      break;
    }
  if (idx == inputs.size())
    throw EngineError("ERR_INPUT_MISMATCH", o.input_name.empty()
                                                ? "model " + o.model_path + " has no rank-4 image input"
                                                : "model " + o.model_path + " has no input named " + o.input_name);
  if (inputs.size() != 1)
    throw EngineError("ERR_INPUT_MISMATCH", "model " + o.model_path + " has " + std::to_string(inputs.size()) +
                                                " inputs; the engine feeds exactly one image input");
  input_index = idx;
  const IoInfo& in = inputs[idx];
  if (in.dims.size() != 4)
    throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " has rank " + std::to_string(in.dims.size()) +
                                                " " + ShapeString(in.dims) + ", expected 4 (image)");
  if (in.dims[0] != 1 && in.dims[0] != -1)
    throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " has batch " + std::to_string(in.dims[0]) +
                                                ", expected 1");
  std::string layout = o.layout;
  auto is_ch = [](int64_t d) { return d == 1 || d == 3; };
  if (layout == "auto") {
    if (is_ch(in.dims[1])) layout = "nchw";
    else if (is_ch(in.dims[3])) layout = "nhwc";
    else
      throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " " + ShapeString(in.dims) +
                                                  " has no 1- or 3-channel axis; set preprocess.layout");
  }
  const bool nchw = layout == "nchw";
  const int64_t ch = nchw ? in.dims[1] : in.dims[3];
  const int64_t h = nchw ? in.dims[2] : in.dims[1];
  const int64_t w = nchw ? in.dims[3] : in.dims[2];
  if (!is_ch(ch) && ch != -1)
    throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " " + ShapeString(in.dims) + " has " +
                                                std::to_string(ch) + " channels for layout " + layout +
                                                ", expected 1 or 3");
  auto pick = [&](int64_t model, int wanted, const char* what) -> int {
    if (model > 0 && wanted > 0 && model != wanted)
      throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " " + ShapeString(in.dims) + " has " + what + " " +
                                                  std::to_string(model) + " but the manifest says " +
                                                  std::to_string(wanted));
    if (model > 0) return static_cast<int>(model);
    if (wanted > 0) return wanted;
    throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " has a dynamic " + what +
                                                "; give preprocess.width and preprocess.height");
  };
  spec.dst_width = pick(w, o.pre_width, "width");
  spec.dst_height = pick(h, o.pre_height, "height");
  spec.channels = ch == 1 ? 1 : 3;
  spec.nchw = nchw;
  spec.bgr = o.bgr;
  spec.letterbox = o.letterbox;
  spec.pad_value = o.pad_value;
  spec.round_pixels = o.round_pixels;
  for (int c = 0; c < 3; ++c) {
    spec.mean[c] = o.mean[c];
    spec.std[c] = o.std[c];
  }
  switch (in.type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: spec.out = OutType::kFloat32; break;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
      spec.out = OutType::kUint8;
      spec.q_scale = o.has_input_quant ? o.input_scale : 1.f / 255.f;
      spec.q_zero = o.has_input_quant ? o.input_zero : 0;
      break;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8:
      spec.out = OutType::kInt8;
      spec.q_scale = o.has_input_quant ? o.input_scale : 1.f / 255.f;
      spec.q_zero = o.has_input_quant ? o.input_zero : -128;
      break;
    default:
      throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " has element type " + TypeName(in.type) +
                                                  "; the engine feeds float32, uint8 or int8");
  }
  for (const auto& out : outputs)
    if (std::string(TypeName(out.type)) == "unsupported" || out.type == ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE ||
        out.type == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 || out.type == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16)
      throw EngineError("ERR_INPUT_MISMATCH", "output " + out.name + " has element type " + TypeName(out.type) +
                                                  ", which the engine does not return");
  input_buffer.resize(OutputBytes(spec));
}

Napi::Error CodedError(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error err = Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

namespace {

struct Constructor {
  Napi::FunctionReference ctor;
};

std::string Str(const Napi::Object& o, const char* k, const std::string& def = "") {
  Napi::Value v = o.Get(k);
  return v.IsString() ? v.As<Napi::String>().Utf8Value() : def;
}
double Num(const Napi::Object& o, const char* k, double def) {
  Napi::Value v = o.Get(k);
  return v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : def;
}
bool Bool(const Napi::Object& o, const char* k, bool def) {
  Napi::Value v = o.Get(k);
  return v.IsBoolean() ? v.As<Napi::Boolean>().Value() : def;
}

// Copies the (already validated by zod) JS options into a plain struct on the main thread.
LoadOptions ParseLoadOptions(const Napi::Object& o) {
  LoadOptions l;
  l.model_path = Str(o, "modelPath");
  l.provider = Str(o, "provider", "cpu");
  l.threads = static_cast<int>(Num(o, "threads", 0));
  l.input_name = Str(o, "inputName");
  l.require_accelerator = Bool(o, "requireAccelerator", false);
  {
    Napi::Object sc = o.Get("sessionConfig").As<Napi::Object>();
    Napi::Array keys = sc.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      std::string k = keys.Get(i).As<Napi::String>().Utf8Value();
      l.session_config.emplace_back(k, sc.Get(k).As<Napi::String>().Utf8Value());
    }
  }
  if (o.Get("preprocess").IsObject()) {
    Napi::Object p = o.Get("preprocess").As<Napi::Object>();
    l.pre_width = static_cast<int>(Num(p, "width", 0));
    l.pre_height = static_cast<int>(Num(p, "height", 0));
    l.layout = Str(p, "layout", "auto");
    l.bgr = Str(p, "colorOrder", "rgb") == "bgr";
    l.letterbox = Str(p, "resize", "letterbox") == "letterbox";
    l.pad_value = static_cast<float>(Num(p, "padValue", 114));
    l.round_pixels = Bool(p, "roundPixels", false);
    Napi::Value m = p.Get("mean"), s = p.Get("std");
    for (uint32_t c = 0; c < 3; ++c) {
      if (m.IsArray()) l.mean[c] = m.As<Napi::Array>().Get(c).As<Napi::Number>().FloatValue();
      if (s.IsArray()) l.std[c] = s.As<Napi::Array>().Get(c).As<Napi::Number>().FloatValue();
    }
    if (p.Get("inputQuantization").IsObject()) {
      Napi::Object q = p.Get("inputQuantization").As<Napi::Object>();
      l.has_input_quant = true;
      l.input_scale = static_cast<float>(Num(q, "scale", 1));
      l.input_zero = static_cast<int>(Num(q, "zeroPoint", 0));
    }
  }
  if (o.Get("htp").IsObject()) {
    Napi::Object h = o.Get("htp").As<Napi::Object>();
    l.provider_library = Str(h, "providerLibrary");
    l.context_cache_path = Str(h, "contextCachePath");
    l.context_embed = Bool(h, "contextEmbed", true);
    if (h.Get("providerOptions").IsObject()) {
      Napi::Object po = h.Get("providerOptions").As<Napi::Object>();
      Napi::Array keys = po.GetPropertyNames();
      for (uint32_t i = 0; i < keys.Length(); ++i) {
        std::string k = keys.Get(i).As<Napi::String>().Utf8Value();
        l.ep_options.emplace_back(k, po.Get(k).ToString().Utf8Value());
      }
    }
  }
  return l;
}

Napi::Array DimsArray(Napi::Env env, const std::vector<int64_t>& d) {
  Napi::Array a = Napi::Array::New(env, d.size());
  for (uint32_t i = 0; i < d.size(); ++i) a.Set(i, Napi::Number::New(env, static_cast<double>(d[i])));
  return a;
}

Napi::Array IoArray(Napi::Env env, const std::vector<IoInfo>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (uint32_t i = 0; i < v.size(); ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", v[i].name);
    o.Set("dims", DimsArray(env, v[i].dims));
    Napi::Array sym = Napi::Array::New(env, v[i].symbolic.size());
    for (uint32_t j = 0; j < v[i].symbolic.size(); ++j) sym.Set(j, v[i].symbolic[j]);
    o.Set("symbolicDims", sym);
    o.Set("type", TypeName(v[i].type));
    a.Set(i, o);
  }
  return a;
}

class LoadWorker : public Napi::AsyncWorker {
 public:
  LoadWorker(Napi::Env env, LoadOptions o)
      : Napi::AsyncWorker(env, "htp_engine.load"), deferred_(Napi::Promise::Deferred::New(env)), opts_(std::move(o)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override {
    try {
      try {
        core_ = std::make_shared<SessionCore>(opts_);
      } catch (const EngineError& e) {
        if (e.code() != "ERR_ACCELERATOR_FALLBACK" || !opts_.require_accelerator) throw;
        // ORT refused without naming the nodes: load again with fallback allowed to list them.
        LoadOptions relaxed = opts_;
        relaxed.require_accelerator = false;
        SessionCore probe(relaxed);
        std::string list;
        for (size_t i = 0; i < probe.fallback.size(); ++i)
          list += (i ? ", " : "") + probe.fallback[i].name + " (" + probe.fallback[i].op_type + ")";
        throw EngineError("ERR_ACCELERATOR_FALLBACK",
                          "model " + opts_.model_path + " does not run entirely on the accelerator; nodes left to " +
                              "the CPU: " + (list.empty() ? std::string("(none reported)") : list));
      }
    } catch (const EngineError& e) {
      code_ = e.code();
      SetError(e.what());
    } catch (const Ort::Exception& e) {
      code_ = "ERR_RUNTIME";
      SetError(e.what());
    } catch (const std::exception& e) {
      code_ = "ERR_RUNTIME";
      SetError(e.what());
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    auto* holder = new std::shared_ptr<SessionCore>(core_);
    Napi::External<std::shared_ptr<SessionCore>> ext = Napi::External<std::shared_ptr<SessionCore>>::New(
        env, holder, [](Napi::Env, std::shared_ptr<SessionCore>* p) { delete p; });
    deferred_.Resolve(env.GetInstanceData<Constructor>()->ctor.New({ext}));
  }
  void OnError(const Napi::Error& e) override {
    deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
  }

 private:
  Napi::Promise::Deferred deferred_;
  LoadOptions opts_;
  std::shared_ptr<SessionCore> core_;
  std::string code_;
};

Encoding ParseEncoding(const std::string& s, bool* ok) {
  static const std::map<std::string, Encoding> m = {
      {"rgb8", Encoding::kRgb8},   {"bgr8", Encoding::kBgr8},     {"rgba8", Encoding::kRgba8},
      {"bgra8", Encoding::kBgra8}, {"mono8", Encoding::kMono8},   {"yuv422", Encoding::kUyvy},
      {"uyvy", Encoding::kUyvy},   {"yuyv", Encoding::kYuyv},     {"yuv422_yuy2", Encoding::kYuyv},
      {"nv12", Encoding::kNv12}};
  auto it = m.find(s);
  *ok = it != m.end();
  return *ok ? it->second : Encoding::kRgb8;
}

class RunWorker : public Napi::AsyncWorker {
 public:
  RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Object data_holder, FrameView frame, Roi roi,
            std::vector<std::pair<std::string, std::string>> run_opts)
      : Napi::AsyncWorker(env, "htp_engine.run"),
        deferred_(Napi::Promise::Deferred::New(env)),
        core_(std::move(core)),
        frame_(frame),
        roi_(roi),
        run_opts_(std::move(run_opts)),
        called_(Clock::now()) {
    // The frame bytes must stay alive (not be collected) until Execute has read them.
    data_ref_ = Napi::Persistent(data_holder);
    core_->in_flight++;
  }
  ~RunWorker() override { Release(); }
  // Decremented before the promise settles so a continuation may dispose at once.
  void Release() {
    if (counted_) core_->in_flight--;
    counted_ = false;
  }
  Napi::Promise Promise() { return deferred_.Promise(); }

  void Execute() override {
    started_ = Clock::now();
    std::lock_guard<std::mutex> lock(core_->run_mutex);
    try {
      if (!core_->session) throw EngineError("ERR_DISPOSED", "session was disposed");
      const auto t0 = Clock::now();
      transform_ = Preprocess(frame_, roi_, core_->spec, core_->input_buffer.data());
      const auto t1 = Clock::now();
      const IoInfo& in = core_->inputs[core_->input_index];
      std::vector<int64_t> shape = core_->spec.nchw
                                       ? std::vector<int64_t>{1, core_->spec.channels, core_->spec.dst_height,
                                                              core_->spec.dst_width}
                                       : std::vector<int64_t>{1, core_->spec.dst_height, core_->spec.dst_width,
                                                              core_->spec.channels};
      auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
      Ort::Value input = Ort::Value::CreateTensor(mem, core_->input_buffer.data(), core_->input_buffer.size(),
                                                  shape.data(), shape.size(), in.type);
      Ort::RunOptions ro;
      for (auto& [k, v] : run_opts_) ro.AddConfigEntry(k.c_str(), v.c_str());
      const char* in_name = in.name.c_str();
      std::vector<const char*> out_names;
      for (auto& o : core_->outputs) out_names.push_back(o.name.c_str());
      outputs_ = core_->session->Run(ro, &in_name, &input, 1, out_names.data(), out_names.size());
      const auto t2 = Clock::now();
      pre_ms_ = Ms(t0, t1);
      infer_ms_ = Ms(t1, t2);
    } catch (const EngineError& e) {
      code_ = e.code();
      SetError(e.what());
    } catch (const Ort::Exception& e) {
      code_ = "ERR_RUNTIME";
      SetError(std::string("inference failed: ") + e.what());
    } catch (const std::exception& e) {
      code_ = "ERR_RUNTIME";
      SetError(e.what());
    }
  }

  void OnOK() override {
    Release();
    Napi::Env env = Env();
    Napi::Object result = Napi::Object::New(env);
    Napi::Array outs = Napi::Array::New(env, outputs_.size());
    for (uint32_t i = 0; i < outputs_.size(); ++i) {
      Napi::Object o = Napi::Object::New(env);
      auto info = outputs_[i].GetTensorTypeAndShapeInfo();
      const auto type = info.GetElementType();
      const size_t n = info.GetElementCount();
      o.Set("name", core_->outputs[i].name);
      o.Set("dims", DimsArray(env, info.GetShape()));
      o.Set("type", type == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 ? "float32" : TypeName(type));
      o.Set("data", ToArrayBuffer(env, std::move(outputs_[i]), type, n));
      outs.Set(i, o);
    }
    result.Set("outputs", outs);
    Napi::Object t = Napi::Object::New(env);
    t.Set("srcWidth", transform_.src_width);
    t.Set("srcHeight", transform_.src_height);
    Napi::Object crop = Napi::Object::New(env);
    crop.Set("x", transform_.crop_x);
    crop.Set("y", transform_.crop_y);
    crop.Set("width", transform_.crop_width);
    crop.Set("height", transform_.crop_height);
    t.Set("crop", crop);
    t.Set("dstWidth", transform_.dst_width);
    t.Set("dstHeight", transform_.dst_height);
    t.Set("scaleX", transform_.scale_x);
    t.Set("scaleY", transform_.scale_y);
    t.Set("padX", transform_.pad_x);
    t.Set("padY", transform_.pad_y);
    result.Set("transform", t);
    Napi::Object tm = Napi::Object::New(env);
    tm.Set("queueMs", Ms(called_, started_));
    tm.Set("preprocessMs", pre_ms_);
    tm.Set("inferenceMs", infer_ms_);
    tm.Set("totalMs", Ms(called_, Clock::now()));
    result.Set("timings", tm);
    deferred_.Resolve(result);
  }
  void OnError(const Napi::Error& e) override {
    Release();
    deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
  }

 private:
  // Hands the ORT-owned output memory to JS without a copy; the finalizer frees it.
  static Napi::ArrayBuffer ToArrayBuffer(Napi::Env env, Ort::Value v, ONNXTensorElementDataType type, size_t n) {
    if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16) {
      Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(env, n * sizeof(float));
      const Ort::Float16_t* src = v.GetTensorData<Ort::Float16_t>();
      float* dst = static_cast<float*>(ab.Data());
      for (size_t i = 0; i < n; ++i) dst[i] = src[i].ToFloat();
      return ab;
    }
    const size_t bytes = v.GetTensorTypeAndShapeInfo().GetElementCount() *
                         (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64   ? 8
                          : type == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT || type == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32
                              ? 4
                              : 1);
    if (bytes == 0) return Napi::ArrayBuffer::New(env, 0);
    auto* owned = new Ort::Value(std::move(v));
    void* data = owned->GetTensorMutableRawData();
    return Napi::ArrayBuffer::New(env, data, bytes, [](Napi::Env, void*, Ort::Value* p) { delete p; }, owned);
  }

  Napi::Promise::Deferred deferred_;
  std::shared_ptr<SessionCore> core_;
  Napi::ObjectReference data_ref_;
  FrameView frame_;
  Roi roi_;
  std::vector<std::pair<std::string, std::string>> run_opts_;
  Clock::time_point called_, started_;
  Transform transform_{};
  std::vector<Ort::Value> outputs_;
  double pre_ms_ = 0, infer_ms_ = 0;
  std::string code_;
  bool counted_ = true;
};

}  // namespace

Napi::Function EngineSession::Define(Napi::Env env) {
  Napi::Function f = DefineClass(env, "EngineSession",
                                 {InstanceMethod("info", &EngineSession::Info),
                                  InstanceMethod("run", &EngineSession::Run),
                                  InstanceMethod("setDynamicOptions", &EngineSession::SetDynamicOptions),
                                  InstanceMethod("dispose", &EngineSession::Dispose),
                                  InstanceAccessor("inFlight", &EngineSession::InFlight, nullptr)});
  auto* c = new Constructor{Napi::Persistent(f)};
  env.SetInstanceData<Constructor>(c);
  return f;
}

EngineSession::EngineSession(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EngineSession>(info) {
  if (info.Length() != 1 || !info[0].IsExternal())
    throw Napi::TypeError::New(info.Env(), "EngineSession is created by loadSession(), not with new");
  core_ = *info[0].As<Napi::External<std::shared_ptr<SessionCore>>>().Data();
}

Napi::Value EngineSession::Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) throw Napi::TypeError::New(env, "loadSession(options) needs an object");
  auto* w = new LoadWorker(env, ParseLoadOptions(info[0].As<Napi::Object>()));
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}

Napi::Value EngineSession::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const SessionCore& c = *core_;
  Napi::Object o = Napi::Object::New(env);
  o.Set("inputs", IoArray(env, c.inputs));
  o.Set("outputs", IoArray(env, c.outputs));
  o.Set("inputName", c.inputs[c.input_index].name);
  Napi::Object pre = Napi::Object::New(env);
  pre.Set("width", c.spec.dst_width);
  pre.Set("height", c.spec.dst_height);
  pre.Set("channels", c.spec.channels);
  pre.Set("layout", c.spec.nchw ? "nchw" : "nhwc");
  pre.Set("type", TypeName(c.inputs[c.input_index].type));
  if (c.spec.out != OutType::kFloat32) {
    Napi::Object q = Napi::Object::New(env);
    q.Set("scale", c.spec.q_scale);
    q.Set("zeroPoint", c.spec.q_zero);
    pre.Set("quantization", q);
  }
  o.Set("preprocess", pre);
  Napi::Object prov = Napi::Object::New(env);
  prov.Set("requested", c.opts.provider);
  prov.Set("assignmentKnown", c.assignment_known);
  prov.Set("note", c.assignment_note);
  Napi::Array counts = Napi::Array::New(env, c.assignment.size());
  for (uint32_t i = 0; i < c.assignment.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("provider", c.assignment[i].provider);
    e.Set("nodes", c.assignment[i].nodes);
    counts.Set(i, e);
  }
  prov.Set("counts", counts);
  Napi::Array fb = Napi::Array::New(env, c.fallback.size());
  for (uint32_t i = 0; i < c.fallback.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("name", c.fallback[i].name);
    e.Set("opType", c.fallback[i].op_type);
    fb.Set(i, e);
  }
  prov.Set("cpuNodes", fb);
  o.Set("providers", prov);
  o.Set("modelSource", c.model_source);
  o.Set("contextCacheWritten", c.context_cache_written);
  return o;
}

Napi::Value EngineSession::Run(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto reject = [&](const std::string& code, const std::string& msg) {
    auto d = Napi::Promise::Deferred::New(env);
    d.Reject(CodedError(env, code, msg).Value());
    return d.Promise();
  };
  if (!core_->session) return reject("ERR_DISPOSED", "session was disposed");
  if (core_->in_flight > 0)
    return reject("ERR_BUSY", "a run is already in flight on this session; runs are not queued");
  if (info.Length() < 1 || !info[0].IsObject()) throw Napi::TypeError::New(env, "run(frame) needs a frame object");
  Napi::Object fo = info[0].As<Napi::Object>();
  Napi::Value data = fo.Get("data");
  if (!data.IsTypedArray() || data.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array)
    return reject("ERR_FRAME_INVALID", "frame.data must be a Uint8Array");
  Napi::Uint8Array u8 = data.As<Napi::Uint8Array>();
  FrameView f;
  f.data = u8.Data();
  f.size = u8.ByteLength();
  f.width = static_cast<int>(Num(fo, "width", 0));
  f.height = static_cast<int>(Num(fo, "height", 0));
  f.step = static_cast<int>(Num(fo, "step", 0));
  bool ok = false;
  f.encoding = ParseEncoding(Str(fo, "encoding"), &ok);
  if (!ok) return reject("ERR_FRAME_INVALID", "frame.encoding '" + Str(fo, "encoding") + "' is not supported");
  Roi roi;
  if (info.Length() > 1 && info[1].IsObject()) {
    Napi::Object r = info[1].As<Napi::Object>();
    roi = {static_cast<int>(Num(r, "x", 0)), static_cast<int>(Num(r, "y", 0)), static_cast<int>(Num(r, "width", 0)),
           static_cast<int>(Num(r, "height", 0))};
    if (roi.width <= 0 || roi.height <= 0)
      return reject("ERR_ROI_INVALID", "roi width and height must be positive");
  }
  std::vector<std::pair<std::string, std::string>> ro;
  if (info.Length() > 2 && info[2].IsObject()) {
    Napi::Object r = info[2].As<Napi::Object>();
    Napi::Array keys = r.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      std::string k = keys.Get(i).As<Napi::String>().Utf8Value();
      ro.emplace_back(k, r.Get(k).ToString().Utf8Value());
    }
  }
  auto* w = new RunWorker(env, core_, u8, f, roi, std::move(ro));
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}

Napi::Value EngineSession::SetDynamicOptions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!core_->session) throw CodedError(env, "ERR_DISPOSED", "session was disposed");
  if (info.Length() < 1 || !info[0].IsObject()) throw Napi::TypeError::New(env, "setDynamicOptions needs an object");
  Napi::Object o = info[0].As<Napi::Object>();
  Napi::Array keys = o.GetPropertyNames();
  std::vector<std::string> ks, vs;
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    ks.push_back(keys.Get(i).As<Napi::String>().Utf8Value());
    vs.push_back(o.Get(ks.back()).ToString().Utf8Value());
  }
  std::vector<const char*> kp, vp;
  for (size_t i = 0; i < ks.size(); ++i) {
    kp.push_back(ks[i].c_str());
    vp.push_back(vs[i].c_str());
  }
  try {
    core_->session->SetEpDynamicOptions(kp.data(), vp.data(), kp.size());
  } catch (const Ort::Exception& e) {
    throw CodedError(env, "ERR_RUNTIME", std::string("dynamic provider options refused: ") + e.what());
  }
  return env.Undefined();
}

Napi::Value EngineSession::Dispose(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (core_->in_flight > 0)
    throw CodedError(env, "ERR_BUSY", "cannot dispose: " + std::to_string(core_->in_flight.load()) +
                                          " run(s) in flight; await them first");
  std::lock_guard<std::mutex> lock(core_->run_mutex);
  core_->session.reset();
  // The JS wrapper (and with it the core) lives until V8 collects it, and V8 does not see native
  // memory: free the input tensor now, or every configure/cleanup cycle leaves megabytes behind.
  std::vector<uint8_t>().swap(core_->input_buffer);
#ifdef __GLIBC__
  // A freed session leaves its weights' pages in glibc's heaps; hand them back so a long-running
  // node that reconfigures does not keep every past session's high-water mark.
  malloc_trim(0);
#endif
  return env.Undefined();
}

Napi::Value EngineSession::InFlight(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), core_->in_flight.load());
}

}  // namespace htp
