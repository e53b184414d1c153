// A loaded model and everything its runs share, whichever runtime runs it: no N-API types here,
// so it can run on libuv workers and be reasoned about (and tested) apart from JS. Every option
// arrives fully resolved by TypeScript.
//   InspectModel(path)        sync (call on a worker) -> ModelDesc; throws EngineError
//   SessionCore::Load(spec)   sync (call on a worker) -> shared_ptr<SessionCore>; throws EngineError
//   SessionCore::Run(...)     sync (call on a worker) -> RunOutput; throws EngineError
//   SessionCore::RunBatch(...) sync (call on a worker) -> a RunOutput per frame; throws EngineError
//   SessionCore::SetDynamicOptions / Dispose  sync (main thread); throw EngineError
// The runtime follows from the model file: an ExecuTorch program (pte_runner.h) or ONNX
// (ort_runner.h); model_runner.h is what either does.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/preprocess.h"
#include "session/host_tensor.h"
#include "session/load_spec.h"
#include "session/model_desc.h"
#include "session/model_runner.h"

namespace htp {

struct RunOutput {
  std::vector<HostTensor> outputs;
  // Per (batch item, channel) of the spec's peaks output: value, index in the channel's plane
  // (plane_peaks.h). Empty when the spec names none or the output's shape is not [B,]C,H,W
  // (or [B,]H,W,C): the heads then scan and report the shape themselves.
  std::vector<double> peaks;
  Transform transform{};
  double preprocess_ms = 0, inference_ms = 0;
};

// The model's inputs and outputs, read without preparing it to run (see InspectOnnxModel).
ModelDesc InspectModel(const std::string& model_path);

class SessionCore {
 public:
  static std::shared_ptr<SessionCore> Load(const LoadSpec& spec);

  // One run at a time: the facade refuses a second concurrent run (ERR_BUSY), and run_mutex_
  // keeps Dispose from freeing the session under a worker.
  RunOutput Run(const FrameView& frame, const Roi& roi, const KeyValues& run_options);
  // Up to spec().batch frames (whole frames) in one run of the model: each frame preprocessed
  // straight into its slot of the input tensor, every output split back into one per frame (the
  // slots past the frames run on what they last held, and their outputs are dropped). Each
  // result's inference_ms is the one shared run's.
  std::vector<RunOutput> RunBatch(const std::vector<FrameView>& frames, const KeyValues& run_options);
  void SetDynamicOptions(const KeyValues& options);
  void Dispose();
  bool Disposed() const { return disposed_.load(); }

  std::atomic<int> in_flight{0};

  const LoadSpec& spec() const { return spec_; }
  const ModelDesc& model() const { return model_; }
  const char* runtime() const { return runtime_name_; }
  const Placement& placement() const { return placement_; }
  const std::string& model_source() const { return model_source_; }
  bool context_cache_written() const { return context_cache_written_; }
  const std::vector<std::string>& delegates() const { return delegates_; }
  const std::vector<std::string>& outputs_in_place() const { return outputs_in_place_; }
  // Never waits on a run: read from the copy the last run left.
  ArenaUsage arena_usage() const;
  // Outputs of all runs so far: written by the runtime straight into the blocks handed to JS, or
  // copied out of its memory afterwards (outputs_in_place() says which to expect).
  struct OutputWrites {
    uint64_t in_place = 0, copied = 0;
  };
  OutputWrites output_writes() const { return {in_place_writes_.load(), copied_writes_.load()}; }

 private:
  explicit SessionCore(const LoadSpec& spec);
  void CheckInput() const;
  void CheckBatchedOutputs() const;
  std::vector<RunOutput> RunSlots(const std::vector<FrameView>& frames, const std::vector<Roi>& rois,
                                  const KeyValues& run_options);
  void ResolvePeaksOutput();

  LoadSpec spec_;
  std::unique_ptr<ModelRunner> runner_;
  std::atomic<bool> disposed_{false};
  std::mutex run_mutex_;
  // Copies of what the runner described, kept after Dispose frees it (info() of a disposed
  // session is refused, but its JS wrapper may still ask for the model).
  ModelDesc model_;
  Placement placement_;
  std::string model_source_;
  bool context_cache_written_ = false;
  std::vector<std::string> delegates_;
  std::vector<std::string> outputs_in_place_;
  const char* runtime_name_ = "";
  std::vector<uint8_t> input_buffer_;
  size_t slot_bytes_ = 0;  // one image of input_buffer_ (it holds spec_.batch of them)
  // Per slot, the input rectangle the last run sampled into it: its padding is in place.
  std::vector<PaddedRect> padded_;
  int peaks_index_ = -1;  // in model_.outputs; -1 for none
  std::atomic<uint64_t> in_place_writes_{0}, copied_writes_{0};
};

}  // namespace htp
