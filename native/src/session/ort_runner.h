// An ONNX model through ONNX Runtime: the CPU provider, or the QNN provider (HTP) as a plug-in
// execution provider, with ORT's own record of which provider took each node.
#pragma once
#include <onnxruntime_cxx_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "session/load_spec.h"
#include "session/model_runner.h"

namespace htp {

// Loads the model without optimizations or providers, only to read its inputs and outputs.
// Why a separate probe: symbolic dimensions can only be pinned (free-dimension overrides) before
// the real session is created, and ONNX Runtime offers no way to read their names short of
// creating a session; the probe skips graph optimization and provider compilation, the costly part.
ModelDesc InspectOnnxModel(const std::string& model_path);

class OrtRunner : public ModelRunner {
 public:
  // Worker thread. Throws EngineError.
  explicit OrtRunner(const LoadSpec& spec);
  ~OrtRunner() override;

  const char* runtime() const override { return "onnxruntime"; }
  const ModelDesc& model() const override { return model_; }
  const Placement& placement() const override { return placement_; }
  const std::string& model_source() const override { return model_source_; }
  bool context_cache_written() const override { return context_cache_written_; }
  void Run(void* input, size_t input_bytes, const std::vector<int64_t>& shape, int input_type,
           const KeyValues& run_options, std::vector<HostTensor>* outputs) override;
  void SetDynamicOptions(const KeyValues& options) override;
  ArenaUsage arena_usage() const override;
  std::vector<std::string> outputs_in_place() const override;

 private:
  void ReadPlacement();
  void OpenArena();
  void ReadArena();

  std::string model_path_;
  std::unique_ptr<Ort::Session> session_;
  // The session's own arena allocator, for its statistics only; released before session_.
  std::unique_ptr<Ort::Allocator> arena_;
  mutable std::mutex arena_usage_mutex_;
  ArenaUsage arena_usage_;
  ModelDesc model_;
  Placement placement_;
  std::vector<std::string> output_names_;
  // Per output, InPlaceBytes: bound to a block of ours before each run (IoBinding), else 0.
  std::vector<size_t> in_place_bytes_;
  Ort::MemoryInfo cpu_memory_{nullptr};
  std::string input_name_;
  std::string model_source_ = "onnx";
  bool context_cache_written_ = false;
};

}  // namespace htp
