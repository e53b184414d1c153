// An ExecuTorch program (.pte) through the ExecuTorch plug-in (pte_program.h), opened on first
// use from beside the addon (HTP_EXECUTORCH_PLUGIN overrides the path, for tests).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "session/load_spec.h"
#include "session/model_runner.h"
#include "session/pte_program.h"

namespace htp {

// True when the file starts as an ExecuTorch program does (a flatbuffer with identifier "ET12"
// or a later "ETxx"): the runtime follows from the file, never from its name.
bool IsExecuTorchProgram(const std::string& path);

// Reads the program's method signature (no method loaded). Throws EngineError: ERR_RUNTIME_MISSING
// when the plug-in or ExecuTorch's libraries cannot be loaded, naming the file dlopen missed.
ModelDesc InspectPteProgram(const std::string& path);

// The plug-in's ExecuTorch version, or "" when it cannot be loaded (why: in *why, if given).
std::string ExecuTorchVersion(std::string* why = nullptr);

class PteRunner : public ModelRunner {
 public:
  // Worker thread. Throws EngineError.
  explicit PteRunner(const LoadSpec& spec);

  const char* runtime() const override { return "executorch"; }
  const ModelDesc& model() const override { return program_->model(); }
  const Placement& placement() const override { return placement_; }
  const std::string& model_source() const override { return model_source_; }
  std::vector<std::string> delegates() const override { return program_->backends(); }
  void Run(void* input, size_t input_bytes, const std::vector<int64_t>& shape, int input_type,
           const KeyValues& run_options, std::vector<HostTensor>* outputs) override;
  void SetDynamicOptions(const KeyValues& options) override;
  std::vector<std::string> outputs_in_place() const override;

 private:
  std::unique_ptr<PteProgram> program_;
  // Per output, InPlaceBytes when the program writes it where we say (caller_output_bytes), else 0.
  std::vector<size_t> in_place_bytes_;
  Placement placement_;
  std::string model_source_ = "pte";
};

}  // namespace htp
