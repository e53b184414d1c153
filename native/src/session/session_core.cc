#include "session/session_core.h"

#include <sys/stat.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>

#include "session/engine_error.h"
#include "onnxruntime_session_options_config_keys.h"
#include "session/ort_env.h"
#include "kernels/plane_peaks.h"

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

std::string ShapeString(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Maps an ORT failure during session creation to our stable codes.
EngineError MapLoadError(const Ort::Exception& e, const LoadSpec& s) {
  const std::string msg = e.what();
  switch (e.GetOrtErrorCode()) {
    case ORT_NO_SUCHFILE: return EngineError("ERR_MODEL_NOT_FOUND", "model file " + s.model_path + ": " + msg);
    case ORT_INVALID_PROTOBUF:
    case ORT_INVALID_GRAPH:
    case ORT_NO_MODEL:
    case ORT_MODEL_LOADED:
      return EngineError("ERR_MODEL_INVALID", "model " + s.model_path + " could not be loaded: " + msg);
    default: break;
  }
  const std::string hint = s.provider == "htp"
                               ? " (provider htp: HTP v68 needs a fully quantized QDQ model with static shapes; "
                                 "a graph too large for the VTCM can fail to finalize: try htp.vtcm_mb)"
                               : "";
  return EngineError("ERR_MODEL_INVALID", "model " + s.model_path + " could not be loaded: " + msg + hint);
}

TensorDesc Describe(std::string name, const Ort::TypeInfo& ti) {
  TensorDesc d;
  d.name = std::move(name);
  if (ti.GetONNXType() != ONNX_TYPE_TENSOR) return d;  // type 0: not a tensor
  auto t = ti.GetTensorTypeAndShapeInfo();
  d.type = static_cast<int>(t.GetElementType());
  d.dims = t.GetShape();
  std::vector<const char*> sym(d.dims.size(), nullptr);
  if (!sym.empty()) t.GetSymbolicDimensions(sym.data(), sym.size());
  for (auto* s : sym) d.symbolic.emplace_back(s ? s : "");
  return d;
}

ModelDesc DescribeSession(const Ort::Session& session) {
  ModelDesc m;
  Ort::AllocatorWithDefaultOptions alloc;
  for (size_t i = 0; i < session.GetInputCount(); ++i)
    m.inputs.push_back(Describe(session.GetInputNameAllocated(i, alloc).get(), session.GetInputTypeInfo(i)));
  for (size_t i = 0; i < session.GetOutputCount(); ++i)
    m.outputs.push_back(Describe(session.GetOutputNameAllocated(i, alloc).get(), session.GetOutputTypeInfo(i)));
  return m;
}

// Bytes per element of the tensors a run hands to JS (float16 arrives widened); 0: not returned.
size_t HostElementBytes(int type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return 4;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return 8;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return 1;
    default: return 0;
  }
}

HostTensor ToHost(std::string name, Ort::Value v) {
  HostTensor t;
  t.name = std::move(name);
  auto info = v.GetTensorTypeAndShapeInfo();
  t.type = static_cast<int>(info.GetElementType());
  t.dims = info.GetShape();
  const size_t n = info.GetElementCount();
  const size_t unit = HostElementBytes(t.type);
  if (unit == 0)
    throw EngineError("ERR_RUNTIME", "output " + t.name + " has ONNX element type " + std::to_string(t.type) +
                                         ", which the engine does not return");
  t.bytes = n * unit;
  if (t.bytes == 0) return t;
  t.data = RecycledBuffer(OutputBlocks(), t.bytes);
  if (t.type == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16) {
    // Widened here, on the worker: the completion callback runs on the JS thread.
    const Ort::Float16_t* src = v.GetTensorData<Ort::Float16_t>();
    float* dst = static_cast<float*>(t.data.data());
    for (size_t i = 0; i < n; ++i) dst[i] = src[i].ToFloat();
  } else {
    std::memcpy(t.data.data(), v.GetTensorRawData(), t.bytes);
  }
  return t;  // `v` goes back to the arena now, not when V8 collects the output
}

// Fills `peaks` for a [B,]C,H,W (or [B,]H,W,C) float output; leaves it empty for any other shape.
void ScanPeaks(HostTensor& t, bool channels_last, std::vector<double>* peaks) {
  const auto& d = t.dims;
  if (d.size() != 3 && d.size() != 4) return;
  for (int64_t x : d) {
    if (x < 1) return;
  }
  const size_t items = d.size() == 4 ? static_cast<size_t>(d[0]) : 1;
  const size_t at = d.size() - 3;  // the first of the three per-item dims
  const size_t channels = static_cast<size_t>(channels_last ? d[at + 2] : d[at]);
  const size_t pixels = static_cast<size_t>(channels_last ? d[at] * d[at + 1] : d[at + 1] * d[at + 2]);
  peaks->resize(2 * items * channels);
  const float* p = static_cast<const float*>(t.Data());
  if (channels_last) {
    FindChannelPeaks(p, items, pixels, channels, peaks->data());
  } else {
    FindPlanePeaks(p, items * channels, pixels, peaks->data());
  }
}

}  // namespace

ModelDesc InspectModel(const std::string& model_path) {
  if (!FileExists(model_path))
    throw EngineError("ERR_MODEL_NOT_FOUND", "model file " + model_path + " does not exist or is not a file");
  Ort::SessionOptions so;
  so.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_DISABLE_ALL);
  so.SetIntraOpNumThreads(1);
  try {
    Ort::Session probe(OrtEnvironment(), model_path.c_str(), so);
    return DescribeSession(probe);
  } catch (const Ort::Exception& e) {
    LoadSpec s;
    s.model_path = model_path;
    s.provider = "cpu";
    throw MapLoadError(e, s);
  }
}

std::shared_ptr<SessionCore> SessionCore::Load(const LoadSpec& spec) {
  return std::shared_ptr<SessionCore>(new SessionCore(spec));
}

SessionCore::SessionCore(const LoadSpec& s) : spec_(s) {
  if (!FileExists(s.model_path))
    throw EngineError("ERR_MODEL_NOT_FOUND", "model file " + s.model_path + " does not exist or is not a file");
  Ort::Env& env = OrtEnvironment();
  Ort::SessionOptions so;
  so.SetIntraOpNumThreads(s.threads);
  so.SetInterOpNumThreads(1);
  so.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_ENABLE_ALL);
  so.AddConfigEntry(kOrtSessionOptionsRecordEpGraphAssignmentInfo, "1");
  for (const auto& [k, v] : s.session_config) so.AddConfigEntry(k.c_str(), v.c_str());
  for (const auto& [name, value] : s.free_dimensions) so.AddFreeDimensionOverrideByName(name.c_str(), value);
  std::string path = s.model_path;
  if (s.provider == "htp") {
    auto devices = PluginEpDevices("QNNExecutionProvider", s.provider_library, "QNNExecutionProvider");
    std::vector<Ort::ConstEpDevice> one{devices.front()};
    std::unordered_map<std::string, std::string> kv(s.provider_options.begin(), s.provider_options.end());
    try {
      so.AppendExecutionProvider_V2(env, one, kv);
    } catch (const Ort::Exception& e) {
      throw EngineError("ERR_PROVIDER_UNAVAILABLE", std::string("QNN provider refused its options: ") + e.what());
    }
    if (!s.context_cache_path.empty()) {
      if (FileExists(s.context_cache_path)) {
        path = s.context_cache_path;
        model_source_ = "context_cache";
      } else {
        so.AddConfigEntry(kOrtSessionOptionEpContextEnable, "1");
        so.AddConfigEntry(kOrtSessionOptionEpContextFilePath, s.context_cache_path.c_str());
        so.AddConfigEntry(kOrtSessionOptionEpContextEmbedMode, s.context_embed ? "1" : "0");
      }
    }
  }
  try {
    session_ = std::make_unique<Ort::Session>(env, path.c_str(), so);
  } catch (const Ort::Exception& e) {
    throw MapLoadError(e, s);
  }
  if (model_source_ == "onnx" && !s.context_cache_path.empty() && s.provider == "htp")
    context_cache_written_ = FileExists(s.context_cache_path);
  model_ = DescribeSession(*session_);
  ReadPlacement();
  CheckInput();
  ResolvePeaksOutput();
  OpenArena();
  input_buffer_.resize(OutputBytes(s.preprocess));
  padded_ = PaddedRect{};
#ifdef __GLIBC__
  // Building a session (parsing the model, optimizing the graph, packing weights) leaves tens of
  // megabytes of freed blocks inside malloc's arenas, which glibc keeps; hand them back once.
  // bench:soak, INT8 YOLOv8s: configured RSS 234 -> 207 MB.
  malloc_trim(0);
#endif
}

// The peaks output must be a float one: float16 arrives widened (ToHost), integer heatmaps are
// left to the heads, which know their quantization.
void SessionCore::ResolvePeaksOutput() {
  if (spec_.peaks_output.empty()) return;
  for (size_t i = 0; i < model_.outputs.size(); ++i) {
    const TensorDesc& o = model_.outputs[i];
    if (o.name != spec_.peaks_output) continue;
    if (o.type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT && o.type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16)
      throw EngineError("ERR_INVALID_OPTIONS", "outputPeaks: output " + o.name + " has ONNX element type " +
                                                   std::to_string(o.type) + ", not float32 or float16");
    peaks_index_ = static_cast<int>(i);
    return;
  }
  std::string names;
  for (const auto& o : model_.outputs) names += (names.empty() ? "" : ", ") + o.name;
  throw EngineError("ERR_INVALID_OPTIONS",
                    "outputPeaks: the model has no output " + spec_.peaks_output + " (its outputs: " + names + ")");
}

// Statistics are optional: a session without a CPU arena (or an ONNX Runtime that cannot wrap it)
// runs the same, it only reports nothing.
void SessionCore::OpenArena() {
  try {
    auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    arena_ = std::make_unique<Ort::Allocator>(*session_, mem);
  } catch (const Ort::Exception&) {
    arena_.reset();
  }
}

// Under run_mutex_, after a run: the arena cannot change meanwhile, and readers on the JS thread
// take only arena_usage_mutex_, held for a copy.
void SessionCore::ReadArena() {
  if (!arena_) return;
  ArenaUsage u;
  try {
    const Ort::KeyValuePairs stats = arena_->GetStats();
    const auto number = [&stats](const char* key, int64_t* out) {
      const char* v = stats.GetValue(key);
      if (v == nullptr) return false;
      *out = std::strtoll(v, nullptr, 10);
      return true;
    };
    u.known = number("TotalAllocated", &u.reserved_bytes) && number("InUse", &u.in_use_bytes);
    number("MaxInUse", &u.peak_in_use_bytes);
    number("NumArenaExtensions", &u.extensions);
  } catch (const Ort::Exception&) {
    u.known = false;
  }
  std::lock_guard<std::mutex> lock(arena_usage_mutex_);
  arena_usage_ = u;
}

ArenaUsage SessionCore::arena_usage() const {
  std::lock_guard<std::mutex> lock(arena_usage_mutex_);
  return arena_usage_;
}

// Where ORT placed each node, from its own partitioning record.
void SessionCore::ReadPlacement() {
  try {
    std::map<std::string, int> counts;
    for (const auto& sg : session_->GetEpGraphAssignmentInfo()) {
      const std::string ep = sg.GetEpName();
      for (const auto& n : sg.GetNodes()) {
        counts[ep] += 1;
        if (ep == "CPUExecutionProvider") cpu_nodes_.push_back({n.GetName(), n.GetOperatorType()});
      }
    }
    for (auto& [k, v] : counts) assignment_.push_back({k, v});
    assignment_known_ = true;
  } catch (const Ort::Exception& e) {
    assignment_note_ = std::string("ONNX Runtime gave no assignment record: ") + e.what();
  }
}

// TypeScript chose the input from the probe; the real session (possibly an EP context cache) must
// agree, or the preprocessing would write a tensor of the wrong shape or type.
void SessionCore::CheckInput() const {
  const PreprocessSpec& p = spec_.preprocess;
  const std::vector<int64_t> want =
      p.nchw ? std::vector<int64_t>{1, p.channels, p.dst_height, p.dst_width}
             : std::vector<int64_t>{1, p.dst_height, p.dst_width, p.channels};
  if (model_.inputs.size() != 1)
    throw EngineError("ERR_INPUT_MISMATCH", "model " + spec_.model_path + " has " +
                                                std::to_string(model_.inputs.size()) +
                                                " inputs; the engine feeds exactly one image input");
  const TensorDesc& in = model_.inputs[0];
  if (in.name != spec_.input_name)
    throw EngineError("ERR_INPUT_MISMATCH", "model " + spec_.model_path + " has no input named " + spec_.input_name);
  bool same = in.type == spec_.input_type && in.dims.size() == want.size();
  for (size_t i = 0; same && i < want.size(); ++i) same = in.dims[i] == -1 || in.dims[i] == want[i];
  if (!same)
    throw EngineError("ERR_INPUT_MISMATCH", "input " + in.name + " is " + ShapeString(in.dims) + " of type " +
                                                std::to_string(in.type) + " in the loaded session, expected " +
                                                ShapeString(want) + " of type " + std::to_string(spec_.input_type));
}

RunOutput SessionCore::Run(const FrameView& frame, const Roi& roi, const KeyValues& run_options) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  if (!session_) throw EngineError("ERR_DISPOSED", "session was disposed");
  RunOutput out;
  try {
    const auto t0 = Clock::now();
    out.transform = Preprocess(frame, roi, spec_.preprocess, input_buffer_.data(), &padded_);
    const auto t1 = Clock::now();
    const PreprocessSpec& p = spec_.preprocess;
    const std::vector<int64_t> shape = p.nchw ? std::vector<int64_t>{1, p.channels, p.dst_height, p.dst_width}
                                              : std::vector<int64_t>{1, p.dst_height, p.dst_width, p.channels};
    auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    Ort::Value input =
        Ort::Value::CreateTensor(mem, input_buffer_.data(), input_buffer_.size(), shape.data(), shape.size(),
                                 static_cast<ONNXTensorElementDataType>(spec_.input_type));
    Ort::RunOptions ro;
    for (const auto& [k, v] : run_options) ro.AddConfigEntry(k.c_str(), v.c_str());
    const char* in_name = spec_.input_name.c_str();
    std::vector<const char*> out_names;
    for (const auto& o : model_.outputs) out_names.push_back(o.name.c_str());
    std::vector<Ort::Value> values = session_->Run(ro, &in_name, &input, 1, out_names.data(), out_names.size());
    const auto t2 = Clock::now();
    for (size_t i = 0; i < values.size(); ++i) out.outputs.push_back(ToHost(model_.outputs[i].name, std::move(values[i])));
    if (peaks_index_ >= 0) ScanPeaks(out.outputs[peaks_index_], spec_.peaks_channels_last, &out.peaks);
    out.preprocess_ms = Ms(t0, t1);
    out.inference_ms = Ms(t1, t2);
    values.clear();
    ReadArena();
  } catch (const Ort::Exception& e) {
    throw EngineError("ERR_RUNTIME", std::string("inference failed: ") + e.what());
  }
  return out;
}

void SessionCore::SetDynamicOptions(const KeyValues& options) {
  if (!session_) throw EngineError("ERR_DISPOSED", "session was disposed");
  std::vector<const char*> keys, values;
  for (const auto& [k, v] : options) {
    keys.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  try {
    session_->SetEpDynamicOptions(keys.data(), values.data(), keys.size());
  } catch (const Ort::Exception& e) {
    throw EngineError("ERR_RUNTIME", std::string("dynamic provider options refused: ") + e.what());
  }
}

void SessionCore::Dispose() {
  if (in_flight > 0)
    throw EngineError("ERR_BUSY", "cannot dispose: " + std::to_string(in_flight.load()) +
                                      " run(s) in flight; await them first");
  std::lock_guard<std::mutex> lock(run_mutex_);
  arena_.reset();
  session_.reset();
  // The JS wrapper (and with it this core) lives until V8 collects it, and V8 does not see native
  // memory: free the input tensor now, or every configure/cleanup cycle leaves megabytes behind.
  std::vector<uint8_t>().swap(input_buffer_);
  padded_ = PaddedRect{};
  disposed_ = true;
#ifdef __GLIBC__
  // A freed session leaves its weights' pages in glibc's heaps; hand them back so a long-running
  // node that reconfigures does not keep every past session's high-water mark.
  malloc_trim(0);
#endif
}

}  // namespace htp
