// The ExecuTorch plug-in (htp_executorch.so): a program (.pte) loaded with ExecuTorch's Module
// API from the registry wheel's runtime (libexecutorch.so, the optimized and quantized kernels,
// the XNNPACK delegate; scripts/setup/62-executorch.sh), behind pte_program.h. Delegates register
// themselves when their library loads: linking them here (no-as-needed) is what makes a program
// that calls XnnpackBackend find it.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

#include "session/engine_error.h"
#include "session/file_paths.h"
#include "session/pte_program.h"

// The shipped headers leave out the thread pool's class; these are the two members of the
// runtime library (libexecutorch_threadpool.so) the plug-in calls, declared as it exports them.
namespace executorch::extension::threadpool {
class ThreadPool {
 public:
  size_t get_thread_count() const;
  bool _unsafe_reset_threadpool(uint32_t num_threads);
};
ThreadPool* get_threadpool();
}  // namespace executorch::extension::threadpool

namespace htp {
namespace {

using executorch::aten::ScalarType;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;

// ExecuTorch logs through its platform layer to stderr (every load prints the CPU probe's lines).
// Instead its errors are kept, per thread, to explain a failure in the error that reports it;
// everything below error level is dropped: a node's log is not the runtime's.
thread_local std::string last_logged_error;

void KeepErrors(et_timestamp_t, et_pal_log_level_t level, const char*, const char*, size_t, const char* message,
                size_t length) {
  if (level != kError && level != kFatal) return;
  std::string m(message, length);
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  last_logged_error = m;
}

void InstallLogHook() {
  static std::once_flag once;
  std::call_once(once, [] {
    executorch::runtime::register_pal(executorch::runtime::PalImpl::create(KeepErrors, __FILE__));
    executorch::runtime::runtime_init();
  });
}

// "Error::InvalidProgram (35): <what ExecuTorch logged last>".
std::string Explain(Error e) {
  std::string s = std::string(executorch::runtime::to_string(e)) + " (" + std::to_string(static_cast<int>(e)) + ")";
  if (!last_logged_error.empty()) s += ": " + last_logged_error;
  last_logged_error.clear();
  return s;
}

int ElementCodeOf(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return kElementFloat;
    case ScalarType::Byte: return kElementUint8;
    case ScalarType::Char: return kElementInt8;
    case ScalarType::Short: return kElementInt16;
    case ScalarType::Int: return kElementInt32;
    case ScalarType::Long: return kElementInt64;
    case ScalarType::Bool: return kElementBool;
    case ScalarType::Half: return kElementFloat16;
    case ScalarType::Double: return kElementFloat64;
    default: return kElementUnknown;
  }
}

bool ScalarTypeOf(int code, ScalarType* out) {
  switch (code) {
    case kElementFloat: *out = ScalarType::Float; return true;
    case kElementUint8: *out = ScalarType::Byte; return true;
    case kElementInt8: *out = ScalarType::Char; return true;
    default: return false;
  }
}

TensorDesc DescribeTensor(const std::string& name, const executorch::runtime::TensorInfo& info) {
  TensorDesc d;
  d.name = name;
  d.type = ElementCodeOf(info.scalar_type());
  for (int32_t s : info.sizes()) d.dims.push_back(s);
  d.symbolic.assign(d.dims.size(), "");
  return d;
}

constexpr int64_t kMaxPlannedBytes = int64_t{4} << 30;

// ExecuTorch's QNN delegate is a library of its own, registered when it loads: a QNN SDK build of
// ExecuTorch names it libqnn_executorch_backend.so (what a board's aarch64 needs: no wheel carries
// it). The x86-64 wheel's libexecutorch_backend_qnn.so is not taken by default: given a program
// whose QnnBackend blob is not QNN's, it crashed the process (a damaged or mislabelled program,
// tried 2026-12-02); HTP_EXECUTORCH_QNN_BACKEND names it deliberately.
const char* const kQnnBackendNames[] = {"libqnn_executorch_backend.so"};

// The folder of ExecuTorch's runtime library, where a QNN backend beside it is looked for first.
std::string RuntimeLibraryDir() {
  return LibraryDirectoryOf(reinterpret_cast<const void*>(&executorch::runtime::runtime_init));
}

// Loads the QNN backend for a program that delegates to QnnBackend, or says where it was looked
// for. HTP_EXECUTORCH_QNN_BACKEND, when set, is the only place looked.
void LoadQnnBackend(const std::string& program) {
  static std::mutex mutex;
  static bool loaded = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded) return;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("HTP_EXECUTORCH_QNN_BACKEND"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  } else {
    const std::string dir = RuntimeLibraryDir();
    for (const char* name : kQnnBackendNames) {
      if (!dir.empty()) candidates.push_back(dir + "/" + name);
    }
    for (const char* name : kQnnBackendNames) candidates.emplace_back(name);  // the loader's path
  }
  std::string tried;
  for (const std::string& c : candidates) {
    if (dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL) != nullptr) {
      loaded = true;
      return;
    }
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + (why != nullptr ? std::string(why) : c);
  }
  throw EngineError("ERR_PROVIDER_UNAVAILABLE",
                    "ExecuTorch program " + program +
                        " delegates to QnnBackend, but ExecuTorch's QNN backend library is not here (" + tried +
                        "): a QNN SDK build of ExecuTorch provides libqnn_executorch_backend.so; put it beside "
                        "ExecuTorch's libraries or on LD_LIBRARY_PATH, or name it in HTP_EXECUTORCH_QNN_BACKEND "
                        "(docs/robot.md)");
}

class ModuleProgram : public PteProgram {
 public:
  ModuleProgram(const std::string& path, int threads, bool describe_only) : path_(path) {
    // Mmap: the weights stay in the page cache's file pages instead of a private copy.
    module_ = std::make_unique<Module>(path, Module::LoadMode::Mmap);
    // InternalConsistency: the flatbuffer verifier walks the whole program before anything reads
    // it, so a damaged or hostile file is refused instead of read out of bounds.
    Error e = module_->load(executorch::runtime::Program::Verification::InternalConsistency);
    if (e != Error::Ok) throw EngineError("ERR_MODEL_INVALID", "ExecuTorch program " + path + " could not be read: " + Explain(e));
    auto names = module_->method_names();
    if (!names.ok() || names->count("forward") == 0)
      throw EngineError("ERR_MODEL_INVALID", "ExecuTorch program " + path + " has no method 'forward'");
    auto meta = module_->method_meta("forward");
    if (!meta.ok()) throw EngineError("ERR_MODEL_INVALID", "ExecuTorch program " + path + ": " + Explain(meta.error()));
    for (size_t i = 0; i < meta->num_inputs(); ++i) {
      auto t = meta->input_tensor_meta(i);
      if (!t.ok())
        throw EngineError("ERR_MODEL_INVALID", "ExecuTorch program " + path + ": input " + std::to_string(i) +
                                                   " is not a tensor (" + Explain(t.error()) + ")");
      model_.inputs.push_back(DescribeTensor("input_" + std::to_string(i), *t));
    }
    for (size_t i = 0; i < meta->num_outputs(); ++i) {
      auto t = meta->output_tensor_meta(i);
      TensorDesc d;
      if (t.ok()) {
        d = DescribeTensor("output_" + std::to_string(i), *t);
      } else {
        d.name = "output_" + std::to_string(i);  // type 0: not a tensor, refused by the facade
      }
      model_.outputs.push_back(d);
    }
    for (size_t i = 0; i < meta->num_backends(); ++i) {
      auto b = meta->get_backend_name(i);
      // One entry per delegate instance: a backend that takes two subgraphs is named twice.
      if (b.ok() && std::find(backends_.begin(), backends_.end(), *b) == backends_.end()) backends_.emplace_back(*b);
    }
    // The working memory the method plans, allocated by load_method in one piece per buffer: a
    // damaged size would be a multi-terabyte allocation (std::bad_alloc, or an abort under
    // AddressSanitizer). Real programs plan tens to hundreds of megabytes.
    int64_t planned = 0;
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      auto size = meta->memory_planned_buffer_size(i);
      if (!size.ok() || *size < 0 || *size > kMaxPlannedBytes - planned)
        throw EngineError("ERR_MODEL_INVALID", "ExecuTorch program " + path + " plans " +
                                                   (size.ok() ? std::to_string(*size) : std::string("unreadable")) +
                                                   " bytes of working memory in buffer " + std::to_string(i) +
                                                   ", beyond the " + std::to_string(kMaxPlannedBytes >> 20) +
                                                   " MiB the engine gives a program");
      planned += *size;
    }
    if (describe_only) return;
    if (std::find(backends_.begin(), backends_.end(), "QnnBackend") != backends_.end()) LoadQnnBackend(path);
    if (threads > 0) {
      auto* pool = executorch::extension::threadpool::get_threadpool();
      if (pool != nullptr && pool->get_thread_count() != static_cast<size_t>(threads))
        pool->_unsafe_reset_threadpool(static_cast<uint32_t>(threads));
    }
    e = module_->load_method("forward");
    if (e != Error::Ok) {
      const std::string why = Explain(e);
      // A delegate that is not registered is a missing library, not a broken file.
      const bool missing_backend = why.find("is not registered") != std::string::npos;
      throw EngineError(missing_backend ? "ERR_PROVIDER_UNAVAILABLE" : "ERR_MODEL_INVALID",
                        "ExecuTorch program " + path + ": method forward could not be loaded: " + why);
    }
  }

  const ModelDesc& model() const override { return model_; }
  const std::vector<std::string>& backends() const override { return backends_; }

  std::vector<PteTensorView> Execute(void* input, const std::vector<int64_t>& shape, int type) override {
    ScalarType st;
    if (!ScalarTypeOf(type, &st))
      throw EngineError("ERR_RUNTIME", "ExecuTorch input of ONNX element type " + std::to_string(type) + " is not fed");
    sizes_.assign(shape.begin(), shape.end());
    dim_order_.resize(shape.size());
    strides_.resize(shape.size());
    int32_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      dim_order_[i] = static_cast<uint8_t>(i);
      strides_[i] = stride;
      stride *= sizes_[i];
    }
    executorch::aten::TensorImpl impl(st, static_cast<ssize_t>(sizes_.size()), sizes_.data(), input,
                                      dim_order_.data(), strides_.data());
    executorch::aten::Tensor tensor(&impl);
    auto result = module_->forward(EValue(tensor));
    if (!result.ok()) throw EngineError("ERR_RUNTIME", "inference failed: ExecuTorch " + Explain(result.error()));
    outputs_ = std::move(*result);
    std::vector<PteTensorView> views;
    for (size_t i = 0; i < outputs_.size(); ++i) {
      if (!outputs_[i].isTensor())
        throw EngineError("ERR_RUNTIME", "inference failed: output_" + std::to_string(i) + " is not a tensor");
      const executorch::aten::Tensor& t = outputs_[i].toTensor();
      PteTensorView v;
      for (ssize_t d = 0; d < t.dim(); ++d) v.dims.push_back(t.size(d));
      v.type = ElementCodeOf(t.scalar_type());
      v.data = t.const_data_ptr();
      v.elements = static_cast<size_t>(t.numel());
      views.push_back(std::move(v));
    }
    return views;
  }

 private:
  std::string path_;
  std::unique_ptr<Module> module_;
  ModelDesc model_;
  std::vector<std::string> backends_;
  std::vector<int32_t> sizes_, strides_;
  std::vector<uint8_t> dim_order_;
  std::vector<EValue> outputs_;
};

}  // namespace
}  // namespace htp

extern "C" __attribute__((visibility("default"))) htp::PteProgram* htp_pte_open(const char* path, int threads,
                                                                                  bool describe_only,
                                                                                  htp::PteOpenError* error) {
  try {
    htp::InstallLogHook();
    return new htp::ModuleProgram(path, threads, describe_only);
  } catch (const htp::EngineError& e) {
    error->code = e.code();
    error->message = e.what();
  } catch (const std::exception& e) {
    error->code = "ERR_MODEL_INVALID";
    error->message = std::string("ExecuTorch program ") + path + ": " + e.what();
  }
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) const char* htp_pte_version() { return HTP_EXECUTORCH_VERSION; }
