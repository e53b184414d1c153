#include "session/pte_runner.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "session/engine_error.h"
#include "session/file_paths.h"

namespace htp {
namespace {

struct Plugin {
  HtpPteOpenFn open = nullptr;
  HtpPteVersionFn version = nullptr;
  std::string path, error;  // error: why it could not be loaded ("" when loaded)
};

// Beside this addon: build/engine/Release/ in a checkout, lib/htp_perception/engine/ installed.
std::string PluginPath() {
  if (const char* p = std::getenv("HTP_EXECUTORCH_PLUGIN"); p != nullptr && *p != '\0') return p;
  const std::string dir = LibraryDirectoryOf(reinterpret_cast<const void*>(&PluginPath));
  return dir.empty() ? "htp_executorch.so" : dir + "/htp_executorch.so";
}

// Opened once per process; a failure is remembered (dlopen would fail the same way again).
const Plugin& LoadPlugin() {
  static Plugin plugin;
  static std::once_flag once;
  std::call_once(once, [] {
    plugin.path = PluginPath();
    // RTLD_LOCAL: ExecuTorch's symbols stay out of the process's global scope (ONNX Runtime and
    // the ROS libraries never see them).
    void* handle = dlopen(plugin.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* e = dlerror();
      plugin.error = e != nullptr ? e : "dlopen failed";
      return;
    }
    plugin.open = reinterpret_cast<HtpPteOpenFn>(dlsym(handle, "htp_pte_open"));
    plugin.version = reinterpret_cast<HtpPteVersionFn>(dlsym(handle, "htp_pte_version"));
    if (plugin.open == nullptr || plugin.version == nullptr) {
      plugin.error = plugin.path + " is not the ExecuTorch plug-in (no htp_pte_open / htp_pte_version)";
      plugin.open = nullptr;
    }
  });
  return plugin;
}

const Plugin& RequirePlugin(const std::string& model_path) {
  const Plugin& p = LoadPlugin();
  if (p.open == nullptr)
    throw EngineError("ERR_RUNTIME_MISSING",
                      "model " + model_path + " is an ExecuTorch program, but this engine cannot load the ExecuTorch "
                      "runtime: " + p.error + " (built by 'bash scripts/bootstrap.sh 62-executorch 65-addon'; "
                      "installed beside the addon in lib/htp_perception/engine)");
  return p;
}

std::unique_ptr<PteProgram> Open(const std::string& path, int threads, bool describe_only,
                                 const std::string& qnn_dir = "") {
  const Plugin& p = RequirePlugin(path);
  PteOpenError error;
  PteProgram* program = p.open(path.c_str(), threads, describe_only, qnn_dir.c_str(), &error);
  if (program == nullptr) throw EngineError(error.code.empty() ? "ERR_MODEL_INVALID" : error.code, error.message);
  return std::unique_ptr<PteProgram>(program);
}

}  // namespace

bool IsExecuTorchProgram(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  unsigned char head[8] = {};
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return n == sizeof head && head[4] == 'E' && head[5] == 'T' && head[6] >= '0' && head[6] <= '9' &&
         head[7] >= '0' && head[7] <= '9';
}

ModelDesc InspectPteProgram(const std::string& path) { return Open(path, 0, true)->model(); }

std::string ExecuTorchVersion(std::string* why) {
  const Plugin& p = LoadPlugin();
  if (p.open == nullptr) {
    if (why != nullptr) *why = p.error;
    return "";
  }
  return p.version();
}

PteRunner::PteRunner(const LoadSpec& spec) {
  // On the CPU provider a QNN-delegated program still finds QNN by the loader's path alone.
  program_ = Open(spec.model_path, spec.threads, false,
                  spec.provider == "htp" ? DirectoryOf(spec.provider_library) : std::string());
  // The runtime names the delegates the method uses, not how much of it each takes: the facade
  // counts delegate and kernel calls in the program's instructions (src/engine/readPteProgram.ts).
  placement_.known = false;
  placement_.note = "ExecuTorch records placement in the program's instructions";
  // An unplanned output of a type we return as it is goes straight into a block JS will own.
  const std::vector<size_t>& caller = program_->caller_output_bytes();
  for (size_t i = 0; i < program_->model().outputs.size(); ++i) {
    const size_t bytes = i < caller.size() ? caller[i] : 0;
    in_place_bytes_.push_back(bytes > 0 && InPlaceBytes(program_->model().outputs[i]) == bytes ? bytes : 0);
  }
}

void PteRunner::Run(void* input, size_t, const std::vector<int64_t>& shape, int input_type, const KeyValues&,
                    std::vector<HostTensor>* outputs) {
  const ModelDesc& m = program_->model();
  std::vector<RecycledBuffer> blocks = TakeOutputBlocks(in_place_bytes_);
  std::vector<void*> memory;
  for (const RecycledBuffer& b : blocks) memory.push_back(b.data());
  const std::vector<PteTensorView> views = program_->Execute(input, shape, input_type, memory);
  for (size_t i = 0; i < views.size(); ++i) {
    const std::string name = i < m.outputs.size() ? m.outputs[i].name : "output_" + std::to_string(i);
    outputs->push_back(FinishOutput(name, views[i].dims, views[i].type, views[i].data, views[i].elements,
                                    i < blocks.size() ? &blocks[i] : nullptr));
  }
}

std::vector<std::string> PteRunner::outputs_in_place() const {
  return InPlaceNames(program_->model(), in_place_bytes_);
}

void PteRunner::SetDynamicOptions(const KeyValues& options) {
  if (options.empty()) return;
  throw EngineError("ERR_RUNTIME", "an ExecuTorch session takes no dynamic options (got " + options.front().first + ")");
}

}  // namespace htp
