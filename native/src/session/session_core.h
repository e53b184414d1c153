// The ONNX Runtime side of the engine: no N-API types here, so it can run on libuv workers and be
// reasoned about (and tested) apart from JS. Every option arrives fully resolved by TypeScript.
//   InspectModel(path)        sync (call on a worker) -> ModelDesc; throws EngineError
//   SessionCore::Load(spec)   sync (call on a worker) -> shared_ptr<SessionCore>; throws EngineError
//   SessionCore::Run(...)     sync (call on a worker) -> RunOutput; throws EngineError
//   SessionCore::SetDynamicOptions / Dispose  sync (main thread); throw EngineError
#pragma once
#include <onnxruntime_cxx_api.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kernels/preprocess.h"
#include "memory/recycled_blocks.h"

namespace htp {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// Element types cross to JS as ONNX codes (ONNXTensorElementDataType == TensorProto.DataType);
// their names live in one TypeScript table (src/core/elementType.ts).
struct TensorDesc {
  std::string name;
  std::vector<int64_t> dims;          // -1 where dynamic
  std::vector<std::string> symbolic;  // per dimension, "" when fixed or unnamed
  int type = 0;
};

struct ModelDesc {
  std::vector<TensorDesc> inputs, outputs;
};

// What TypeScript decided (layout, size, quantization, dims to pin); nothing here has a default.
struct LoadSpec {
  std::string model_path;
  std::string provider;  // "cpu" | "htp"
  int threads = 0;
  KeyValues session_config;
  std::vector<std::pair<std::string, int64_t>> free_dimensions;
  std::string input_name;
  int input_type = 0;
  PreprocessSpec preprocess{};
  // provider "htp" only
  std::string provider_library;
  KeyValues provider_options;
  std::string context_cache_path;  // "" for none
  bool context_embed = true;
  // The output whose channel peaks Run finds on the worker ("" for none), and its layout.
  std::string peaks_output;
  bool peaks_channels_last = false;
};

struct ProviderCount {
  std::string provider;
  int nodes;
};
struct PlacedNode {
  std::string name, op_type;
};

// One output of a run, ready to become an ArrayBuffer: its bytes are `value`'s (ORT-owned, zero
// copy) or `widened`'s (float16 converted to float32 on the worker, never on the JS thread).
struct HostTensor {
  std::string name;
  std::vector<int64_t> dims;
  int type = 0;  // the model's ONNX element code: float16 stays float16 though the bytes are float32
  // The output's bytes copied out of ONNX Runtime's arena on the worker (float16 widened to
  // float32): JS keeps an output until V8 collects it, which may be minutes, and in the arena each
  // one held a chunk that long, so the arena grew to hold them and RSS with it (bench:soak
  // --container: +39 MB in an hour). From OutputBlocks(): the blocks of collected outputs are
  // reused, so a copy costs a memcpy, not a fresh mapping's page faults.
  RecycledBuffer data;
  size_t bytes = 0;
  void* Data() { return data.data(); }
};

struct RunOutput {
  std::vector<HostTensor> outputs;
  // Per (batch item, channel) of the spec's peaks output: value, index in the channel's plane
  // (plane_peaks.h). Empty when the spec names none or the output's shape is not [B,]C,H,W
  // (or [B,]H,W,C): the heads then scan and report the shape themselves.
  std::vector<double> peaks;
  Transform transform{};
  double preprocess_ms = 0, inference_ms = 0;
};

// Loads the model without optimizations or providers, only to read its inputs and outputs.
// Why a separate probe: symbolic dimensions can only be pinned (free-dimension overrides) before
// the real session is created, and ONNX Runtime offers no way to read their names short of
// creating a session; the probe skips graph optimization and provider compilation, the costly part.
ModelDesc InspectModel(const std::string& model_path);

// The session's CPU arena (ONNX Runtime's BFC allocator, where its intermediate tensors live) as
// read after the last run: what it reserved from malloc, what was in use then, the most ever in use
// at once, and how often it grew. known = false before the first run, and for a session whose
// allocator reports nothing (ONNX Runtime without stats, or no arena).
struct ArenaUsage {
  bool known = false;
  int64_t reserved_bytes = 0;
  int64_t in_use_bytes = 0;
  int64_t peak_in_use_bytes = 0;
  int64_t extensions = 0;
};

class SessionCore {
 public:
  static std::shared_ptr<SessionCore> Load(const LoadSpec& spec);

  // One run at a time: the facade refuses a second concurrent run (ERR_BUSY), and run_mutex_
  // keeps Dispose from freeing the session under a worker.
  RunOutput Run(const FrameView& frame, const Roi& roi, const KeyValues& run_options);
  void SetDynamicOptions(const KeyValues& options);
  void Dispose();
  bool Disposed() const { return disposed_.load(); }

  std::atomic<int> in_flight{0};

  const LoadSpec& spec() const { return spec_; }
  const ModelDesc& model() const { return model_; }
  const std::vector<ProviderCount>& assignment() const { return assignment_; }
  const std::vector<PlacedNode>& cpu_nodes() const { return cpu_nodes_; }
  bool assignment_known() const { return assignment_known_; }
  const std::string& assignment_note() const { return assignment_note_; }
  const std::string& model_source() const { return model_source_; }
  bool context_cache_written() const { return context_cache_written_; }
  // Never waits on a run: read from the copy the last run left.
  ArenaUsage arena_usage() const;

 private:
  explicit SessionCore(const LoadSpec& spec);
  void ReadPlacement();
  void CheckInput() const;
  void ResolvePeaksOutput();
  void OpenArena();
  void ReadArena();

  LoadSpec spec_;
  std::unique_ptr<Ort::Session> session_;
  // The session's own arena allocator, for its statistics only; released before session_.
  std::unique_ptr<Ort::Allocator> arena_;
  mutable std::mutex arena_usage_mutex_;
  ArenaUsage arena_usage_;
  std::atomic<bool> disposed_{false};
  std::mutex run_mutex_;
  ModelDesc model_;
  std::vector<uint8_t> input_buffer_;
  // The input rectangle the last run sampled into input_buffer_: its padding is in place.
  PaddedRect padded_;
  int peaks_index_ = -1;  // in model_.outputs; -1 for none
  std::vector<ProviderCount> assignment_;
  std::vector<PlacedNode> cpu_nodes_;
  bool assignment_known_ = false;
  std::string assignment_note_;
  std::string model_source_ = "onnx";  // or "context_cache"
  bool context_cache_written_ = false;
};

}  // namespace htp
