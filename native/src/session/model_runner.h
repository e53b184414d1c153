// What one runtime does for a SessionCore: describe the model, run it on the preprocessed input
// tensor, and say where its work ran. SessionCore keeps everything the runtimes share (the fused
// preprocessing, the input buffer, the channel peaks, timings, the run lock and the dispose
// rules); a runner keeps only its runtime's session.
//   OrtRunner (ort_runner.h)  an ONNX model through ONNX Runtime, CPU or the QNN provider
//   PteRunner (pte_runner.h)  an ExecuTorch program (.pte) through the ExecuTorch plug-in
// All calls come from SessionCore: Run on a worker under its run lock, the rest as documented.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "session/host_tensor.h"
#include "session/model_desc.h"

namespace htp {

struct ProviderCount {
  std::string provider;
  int nodes;
};
struct PlacedNode {
  std::string name, op_type;
};

// Where the model's work ran, from the runtime's own record.
struct Placement {
  bool known = false;
  std::string note;                   // why nothing is known, when it is not
  std::vector<ProviderCount> counts;  // per provider (ORT) or backend (ExecuTorch)
  std::vector<PlacedNode> cpu_nodes;  // ORT: the nodes its CPU provider took
};

// The session's CPU arena (ONNX Runtime's BFC allocator, where its intermediate tensors live) as
// read after the last run: what it reserved from malloc, what was in use then, the most ever in use
// at once, and how often it grew. known = false before the first run, and for a session whose
// allocator reports nothing (ONNX Runtime without stats, or no arena, or another runtime).
struct ArenaUsage {
  bool known = false;
  int64_t reserved_bytes = 0;
  int64_t in_use_bytes = 0;
  int64_t peak_in_use_bytes = 0;
  int64_t extensions = 0;
};

class ModelRunner {
 public:
  virtual ~ModelRunner() = default;
  virtual const char* runtime() const = 0;  // "onnxruntime" | "executorch"
  virtual const ModelDesc& model() const = 0;
  virtual const Placement& placement() const = 0;
  // "onnx", "context_cache" (an ORT EP context cache) or "pte".
  virtual const std::string& model_source() const = 0;
  virtual bool context_cache_written() const { return false; }
  // The backends an ExecuTorch program delegates to (XnnpackBackend, QnnBackend, ...), by name.
  virtual std::vector<std::string> delegates() const { return {}; }
  // The outputs the runtime writes straight into the blocks handed to JS (InPlaceBytes), by name;
  // the others are copied out of its memory after each run.
  virtual std::vector<std::string> outputs_in_place() const { return {}; }
  // Worker thread, under SessionCore's run lock: runs the model on `input` (shape and ONNX element
  // code as the spec planned) and appends every output to `outputs`, in model().outputs' order.
  virtual void Run(void* input, size_t input_bytes, const std::vector<int64_t>& shape, int input_type,
                   const KeyValues& run_options, std::vector<HostTensor>* outputs) = 0;
  // Main thread. Runtime options that change between runs (the QNN provider's power votes).
  virtual void SetDynamicOptions(const KeyValues& options) = 0;
  // Never waits on a run.
  virtual ArenaUsage arena_usage() const { return {}; }
};

}  // namespace htp
