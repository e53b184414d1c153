// The ExecuTorch plug-in (htp_executorch.so): a program (.pte) loaded with ExecuTorch's Module
// API from the registry wheel's runtime (libexecutorch.so, the optimized and quantized kernels,
// the XNNPACK delegate; scripts/setup/62-executorch.sh), behind pte_program.h. Delegates register
// themselves when their library loads: linking them here (no-as-needed) is what makes a program
// that calls XnnpackBackend find it.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
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
// everything below error level is dropped: a node's log is not the runtime's. The last few are
// kept, not only the last: a delegate's own cause is logged before ExecuTorch's "Init failed".
constexpr size_t kKeptErrors = 8;
thread_local std::vector<std::string> logged_errors;

void KeepErrors(et_timestamp_t, et_pal_log_level_t level, const char*, const char*, size_t, const char* message,
                size_t length) {
  if (level != kError && level != kFatal) return;
  std::string m(message, length);
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  if (logged_errors.size() == kKeptErrors) logged_errors.erase(logged_errors.begin());
  logged_errors.push_back(std::move(m));
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
  if (!logged_errors.empty()) s += ": " + logged_errors.back();
  logged_errors.clear();
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

// ExecuTorch's QNN backend opens QNN's HTP library by name. Where the loader's path finds none
// (and none is loaded yet), the one of the QNN runtime the engine already uses for ONNX models is
// loaded first, so that name finds it: one QNN runtime per process, as on a board whose install
// space carries the wheel's QNN libraries beside the addon.
void PreloadQnnHtp(const std::string& qnn_dir) {
  if (qnn_dir.empty() || dlopen("libQnnHtp.so", RTLD_NOW | RTLD_NOLOAD) != nullptr) return;
  if (dlopen("libQnnHtp.so", RTLD_NOW | RTLD_GLOBAL) != nullptr) return;  // kept: the backend's
  dlerror();
  if (dlopen((qnn_dir + "/libQnnHtp.so").c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) dlerror();
}

// Loads the QNN backend for a program that delegates to QnnBackend, or says where it was looked
// for. HTP_EXECUTORCH_QNN_BACKEND, when set, is the only place looked.
void LoadQnnBackend(const std::string& program, const std::string& qnn_dir) {
  static std::mutex mutex;
  static bool loaded = false;
  std::lock_guard<std::mutex> lock(mutex);
  PreloadQnnHtp(qnn_dir);
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

// QNN's interface as every QNN 2.x lays it out: a backend id, a provider name, the core and
// backend API versions, then the function table, which only grows at its end between versions.
struct QnnVersion {
  uint32_t major, minor, patch;
};
enum QnnFunction { kBackendCreate = 1, kBackendFree = 8, kDeviceCreate = 40, kDeviceFree = 43, kFunctionsRead };
struct QnnInterface {
  uint32_t backend_id;
  const char* provider_name;
  QnnVersion core, backend;
  void* fn[kFunctionsRead];
};
using QnnGetProviders = uint64_t (*)(const QnnInterface***, uint32_t*);
using QnnCreate = uint64_t (*)(const void*, const void* const*, void**);
using QnnFree = uint64_t (*)(void*);

std::string VersionText(const QnnVersion& v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

// QNN's answer to an HTP device for the QCS6490 (SoC model 93) whose custom config carries the
// model at `offset`: 4 in the QNN 2.37 headers ExecuTorch 1.5.1's wheel was built with, 8 since
// QNN added a pointer to that config's union (2.51 has it). 0 is a device made (and freed).
uint64_t DeviceWithSocModelAt(const QnnInterface& qnn, size_t offset) {
  uint32_t custom[4] = {0, 0, 0, 0};  // option 0: the SoC model
  custom[offset / sizeof(uint32_t)] = 93;
  struct {
    uint32_t option;  // 0: a custom config
    const void* custom;
  } config{0, custom};
  const void* configs[] = {&config, nullptr};
  void* device = nullptr;
  const uint64_t result = reinterpret_cast<QnnCreate>(qnn.fn[kDeviceCreate])(nullptr, configs, &device);
  if (result == 0 && device != nullptr) reinterpret_cast<QnnFree>(qnn.fn[kDeviceFree])(device);
  return result;
}

// Why ExecuTorch's QNN backend failed to start, measured on the libQnnHtp.so the loader finds by
// that name (the one the backend opens): its absence, or an HTP device it refuses in the layout
// the backend writes but takes in its own. ExecuTorch's QNN backend prints its reasons to stderr
// itself, past the log hook. Empty when neither is the cause. `unavailable` says the accelerator
// cannot be used (rather than the program being at fault).
std::string QnnInitDiagnosis(bool* unavailable) {
  void* handle = dlopen("libQnnHtp.so", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    *unavailable = true;
    const char* why = dlerror();
    return "; QNN's HTP library cannot be opened (" + std::string(why != nullptr ? why : "libQnnHtp.so") +
           "): put the QNN runtime's libraries on LD_LIBRARY_PATH (docs/robot.md)";
  }
  auto get = reinterpret_cast<QnnGetProviders>(dlsym(handle, "QnnInterface_getProviders"));
  const QnnInterface** list = nullptr;
  uint32_t count = 0;
  std::string diagnosis;
  if (get != nullptr && get(&list, &count) == 0 && count > 0 && list != nullptr && list[0] != nullptr) {
    const QnnInterface& qnn = *list[0];
    Dl_info where{};
    const std::string file = dladdr(reinterpret_cast<void*>(get), &where) != 0 && where.dli_fname != nullptr
                                 ? where.dli_fname
                                 : "libQnnHtp.so";
    const std::string named = file + " (QNN core API " + VersionText(qnn.core) + ", HTP API " +
                              VersionText(qnn.backend) + ")";
    void* backend = nullptr;
    if (reinterpret_cast<QnnCreate>(qnn.fn[kBackendCreate])(nullptr, nullptr, &backend) == 0) {
      const uint64_t old_layout = DeviceWithSocModelAt(qnn, 4);
      const uint64_t new_layout = old_layout == 0 ? 1 : DeviceWithSocModelAt(qnn, 8);
      if (old_layout != 0 && new_layout == 0) {
        *unavailable = true;
        diagnosis = "; QNN refuses the HTP device as ExecuTorch's QNN backend describes it (error " +
                    std::to_string(old_layout) + "): " + named +
                    " reads the device's SoC model 4 bytes further on than the QNN SDK the backend was built "
                    "with writes it (ExecuTorch 1.5.1's x86-64 wheel: QNN 2.37; QNN 2.51 moved it). Run the "
                    "backend with the QNN runtime it was built with, or build it against this one (docs/robot.md)";
      } else if (old_layout == 0) {
        diagnosis = "; " + named +
                    " creates the HTP device as the backend describes it: the cause is past device creation (the "
                    "QNN backend's own lines on stderr say which)";
      }
      reinterpret_cast<QnnFree>(qnn.fn[kBackendFree])(backend);
    }
  }
  dlclose(handle);
  return diagnosis;
}

class ModuleProgram : public PteProgram {
 public:
  ModuleProgram(const std::string& path, int threads, bool describe_only, const std::string& qnn_dir)
      : path_(path) {
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
      caller_output_bytes_.push_back(t.ok() && !t->is_memory_planned() ? t->nbytes() : 0);
    }
    own_output_memory_.resize(caller_output_bytes_.size());
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
    const bool delegates_to_qnn = std::find(backends_.begin(), backends_.end(), "QnnBackend") != backends_.end();
    if (delegates_to_qnn) LoadQnnBackend(path, qnn_dir);
    if (threads > 0) {
      auto* pool = executorch::extension::threadpool::get_threadpool();
      if (pool != nullptr && pool->get_thread_count() != static_cast<size_t>(threads))
        pool->_unsafe_reset_threadpool(static_cast<uint32_t>(threads));
    }
    e = module_->load_method("forward");
    if (e != Error::Ok) {
      const std::string why = Explain(e);
      // A delegate that is not registered is a missing library, not a broken file; a QNN runtime
      // that refuses the backend is an accelerator that cannot be used.
      bool unavailable = why.find("is not registered") != std::string::npos;
      const std::string qnn = delegates_to_qnn && why.find("QnnBackend") != std::string::npos
                                  ? QnnInitDiagnosis(&unavailable)
                                  : std::string();
      throw EngineError(unavailable ? "ERR_PROVIDER_UNAVAILABLE" : "ERR_MODEL_INVALID",
                        "ExecuTorch program " + path + ": method forward could not be loaded: " + why + qnn);
    }
  }

  const ModelDesc& model() const override { return model_; }
  const std::vector<std::string>& backends() const override { return backends_; }
  const std::vector<size_t>& caller_output_bytes() const override { return caller_output_bytes_; }

  std::vector<PteTensorView> Execute(void* input, const std::vector<int64_t>& shape, int type,
                                     const std::vector<void*>& output_memory) override {
    PointOutputs(output_memory);
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
  // Every unplanned output gets memory before each run: the caller's block, else our own.
  void PointOutputs(const std::vector<void*>& output_memory) {
    for (size_t i = 0; i < caller_output_bytes_.size(); ++i) {
      const size_t bytes = caller_output_bytes_[i];
      if (bytes == 0) continue;
      void* where = i < output_memory.size() ? output_memory[i] : nullptr;
      if (where == nullptr) {
        own_output_memory_[i].resize(bytes);
        where = own_output_memory_[i].data();
      }
      // Module::set_output reads only the tensor's data pointer and byte count: a flat byte view
      // of the block says both.
      executorch::aten::SizesType size = static_cast<executorch::aten::SizesType>(bytes);
      executorch::aten::DimOrderType order = 0;
      executorch::aten::StridesType stride = 1;
      executorch::aten::TensorImpl impl(ScalarType::Byte, 1, &size, where, &order, &stride);
      const Error e = module_->set_output(EValue(executorch::aten::Tensor(&impl)), i);
      if (e != Error::Ok)
        throw EngineError("ERR_RUNTIME", "inference failed: ExecuTorch refused memory for output_" +
                                             std::to_string(i) + ": " + Explain(e));
    }
  }

  std::string path_;
  std::unique_ptr<Module> module_;
  ModelDesc model_;
  std::vector<std::string> backends_;
  std::vector<int32_t> sizes_, strides_;
  std::vector<uint8_t> dim_order_;
  std::vector<EValue> outputs_;
  std::vector<size_t> caller_output_bytes_;
  std::vector<std::vector<uint8_t>> own_output_memory_;
};

}  // namespace
}  // namespace htp

extern "C" __attribute__((visibility("default"))) htp::PteProgram* htp_pte_open(const char* path, int threads,
                                                                                  bool describe_only,
                                                                                  const char* qnn_dir,
                                                                                  htp::PteOpenError* error) {
  try {
    htp::InstallLogHook();
    return new htp::ModuleProgram(path, threads, describe_only, qnn_dir != nullptr ? qnn_dir : "");
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
