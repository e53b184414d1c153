#include "session/ort_runner.h"

#include <cstdlib>
#include <map>
#include <unordered_map>

#include "onnxruntime_session_options_config_keys.h"
#include "session/engine_error.h"
#include "session/file_paths.h"
#include "session/ort_env.h"

namespace htp {
namespace {

// Maps an ORT failure during session creation to our stable codes.
EngineError MapLoadError(const Ort::Exception& e, const std::string& model_path, const std::string& provider) {
  const std::string msg = e.what();
  switch (e.GetOrtErrorCode()) {
    case ORT_NO_SUCHFILE: return EngineError("ERR_MODEL_NOT_FOUND", "model file " + model_path + ": " + msg);
    case ORT_INVALID_PROTOBUF:
    case ORT_INVALID_GRAPH:
    case ORT_NO_MODEL:
    case ORT_MODEL_LOADED:
      return EngineError("ERR_MODEL_INVALID", "model " + model_path + " could not be loaded: " + msg);
    default: break;
  }
  const std::string hint = provider == "htp"
                               ? " (provider htp: HTP v68 needs a fully quantized QDQ model with static shapes; "
                                 "a graph too large for the VTCM can fail to finalize: try htp.vtcm_mb)"
                               : "";
  return EngineError("ERR_MODEL_INVALID", "model " + model_path + " could not be loaded: " + msg + hint);
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

}  // namespace

ModelDesc InspectOnnxModel(const std::string& model_path) {
  Ort::SessionOptions so;
  so.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_DISABLE_ALL);
  so.SetIntraOpNumThreads(1);
  try {
    Ort::Session probe(OrtEnvironment(), model_path.c_str(), so);
    return DescribeSession(probe);
  } catch (const Ort::Exception& e) {
    throw MapLoadError(e, model_path, "cpu");
  }
}

OrtRunner::OrtRunner(const LoadSpec& s) : model_path_(s.model_path), input_name_(s.input_name) {
  Ort::Env& env = OrtEnvironment();
  Ort::SessionOptions so;
  so.SetIntraOpNumThreads(s.threads);
  so.SetInterOpNumThreads(1);
  so.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_ENABLE_ALL);
  so.AddConfigEntry(kOrtSessionOptionsRecordEpGraphAssignmentInfo, "1");
  for (const auto& [k, v] : s.session_config) so.AddConfigEntry(k.c_str(), v.c_str());
  for (const auto& [name, value] : s.free_dimensions) so.AddFreeDimensionOverrideByName(name.c_str(), value);
  std::string path = s.model_path;
  const bool qnn = s.provider == "htp" || s.provider == "gpu";
  if (qnn) {
    auto devices = PluginEpDevices("QNNExecutionProvider", s.provider_library, "QNNExecutionProvider");
    // The QNN provider offers its NPU and GPU as devices: a GPU session takes the GPU device where
    // one is offered (a board), else the first; the backend library (backend_path) decides.
    Ort::ConstEpDevice device = devices.front();
    if (s.provider == "gpu") {
      for (const auto& d : devices)
        if (d.Device().Type() == OrtHardwareDeviceType_GPU) device = d;
    }
    std::vector<Ort::ConstEpDevice> one{device};
    std::unordered_map<std::string, std::string> kv(s.provider_options.begin(), s.provider_options.end());
    try {
      so.AppendExecutionProvider_V2(env, one, kv);
    } catch (const Ort::Exception& e) {
      throw EngineError("ERR_PROVIDER_UNAVAILABLE", std::string("QNN provider refused its options: ") + e.what());
    }
    if (!s.context_cache_path.empty()) {
      if (IsRegularFile(s.context_cache_path)) {
        path = s.context_cache_path;
        model_source_ = "context_cache";
      } else {
        so.AddConfigEntry(kOrtSessionOptionEpContextEnable, "1");
        so.AddConfigEntry(kOrtSessionOptionEpContextFilePath, s.context_cache_path.c_str());
        so.AddConfigEntry(kOrtSessionOptionEpContextEmbedMode, s.context_embed ? "1" : "0");
      }
    }
  }
  const size_t errors_before = OrtErrorMark();
  try {
    session_ = std::make_unique<Ort::Session>(env, path.c_str(), so);
  } catch (const Ort::Exception& e) {
    throw MapLoadError(e, s.model_path, s.provider);
  }
  const std::string provider_errors = OrtErrorsSince(errors_before);
  if (model_source_ == "onnx" && !s.context_cache_path.empty() && qnn)
    context_cache_written_ = IsRegularFile(s.context_cache_path);
  model_ = DescribeSession(*session_);
  for (const auto& o : model_.outputs) {
    output_names_.push_back(o.name);
    in_place_bytes_.push_back(InPlaceBytes(o));
  }
  cpu_memory_ = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
  ReadPlacement();
  // A QNN backend that cannot initialise only logs, and ONNX Runtime hands every node to the
  // CPU: for the GPU, asked for by name, that is a refusal in the backend's own words.
  if (s.provider == "gpu" && placement_.known) {
    int qnn_nodes = 0;
    for (const auto& c : placement_.counts)
      if (c.provider == "QNNExecutionProvider") qnn_nodes += c.nodes;
    if (qnn_nodes == 0)
      throw EngineError("ERR_PROVIDER_UNAVAILABLE",
                        "provider gpu: the QNN GPU backend took no node of " + s.model_path + ": " +
                            (provider_errors.empty() ? std::string("it logged no reason") : provider_errors) +
                            " ('htp-perception doctor' lists what the GPU backend needs: /dev/kgsl-3d0, OpenCL, "
                            "Adreno's OpenCL driver, libQnnGpu.so)");
  }
  OpenArena();
}

OrtRunner::~OrtRunner() {
  arena_.reset();
  session_.reset();
}

// Where ORT placed each node, from its own partitioning record.
void OrtRunner::ReadPlacement() {
  try {
    std::map<std::string, int> counts;
    for (const auto& sg : session_->GetEpGraphAssignmentInfo()) {
      const std::string ep = sg.GetEpName();
      for (const auto& n : sg.GetNodes()) {
        counts[ep] += 1;
        if (ep == "CPUExecutionProvider") placement_.cpu_nodes.push_back({n.GetName(), n.GetOperatorType()});
      }
    }
    for (auto& [k, v] : counts) placement_.counts.push_back({k, v});
    placement_.known = true;
  } catch (const Ort::Exception& e) {
    placement_.note = std::string("ONNX Runtime gave no assignment record: ") + e.what();
  }
}

// Statistics are optional: a session without a CPU arena (or an ONNX Runtime that cannot wrap it)
// runs the same, it only reports nothing.
void OrtRunner::OpenArena() {
  try {
    auto mem = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    arena_ = std::make_unique<Ort::Allocator>(*session_, mem);
  } catch (const Ort::Exception&) {
    arena_.reset();
  }
}

// After a run, under SessionCore's run lock: the arena cannot change meanwhile, and readers on the
// JS thread take only arena_usage_mutex_, held for a copy.
void OrtRunner::ReadArena() {
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

ArenaUsage OrtRunner::arena_usage() const {
  std::lock_guard<std::mutex> lock(arena_usage_mutex_);
  return arena_usage_;
}

void OrtRunner::Run(void* input, size_t input_bytes, const std::vector<int64_t>& shape, int input_type,
                    const KeyValues& run_options, std::vector<HostTensor>* outputs) {
  try {
    Ort::Value in = Ort::Value::CreateTensor(cpu_memory_, input, input_bytes, shape.data(), shape.size(),
                                             static_cast<ONNXTensorElementDataType>(input_type));
    Ort::RunOptions ro;
    for (const auto& [k, v] : run_options) ro.AddConfigEntry(k.c_str(), v.c_str());
    Ort::IoBinding binding(*session_);
    binding.BindInput(input_name_.c_str(), in);
    // Outputs of known size go straight into the blocks JS will own; the rest ONNX Runtime
    // allocates in its arena and we copy out below.
    std::vector<RecycledBuffer> blocks = TakeOutputBlocks(in_place_bytes_);
    for (size_t i = 0; i < output_names_.size(); ++i) {
      const TensorDesc& o = model_.outputs[i];
      if (in_place_bytes_[i] == 0) {
        binding.BindOutput(output_names_[i].c_str(), cpu_memory_);
        continue;
      }
      Ort::Value v = Ort::Value::CreateTensor(cpu_memory_, blocks[i].data(), in_place_bytes_[i], o.dims.data(),
                                              o.dims.size(), static_cast<ONNXTensorElementDataType>(o.type));
      binding.BindOutput(output_names_[i].c_str(), v);
    }
    session_->Run(ro, binding);
    std::vector<Ort::Value> values = binding.GetOutputValues();
    binding.ClearBoundOutputs();
    for (size_t i = 0; i < values.size(); ++i) {
      auto info = values[i].GetTensorTypeAndShapeInfo();
      outputs->push_back(FinishOutput(output_names_[i], info.GetShape(), static_cast<int>(info.GetElementType()),
                                      values[i].GetTensorRawData(), info.GetElementCount(), &blocks[i]));
      // A copied value goes back to the arena at once, not when V8 collects the output.
      values[i] = Ort::Value(nullptr);
    }
    ReadArena();
  } catch (const Ort::Exception& e) {
    throw EngineError("ERR_RUNTIME", std::string("inference failed: ") + e.what());
  }
}

std::vector<std::string> OrtRunner::outputs_in_place() const { return InPlaceNames(model_, in_place_bytes_); }

void OrtRunner::SetDynamicOptions(const KeyValues& options) {
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

}  // namespace htp
