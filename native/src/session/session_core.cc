#include "session/session_core.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <chrono>

#include "kernels/plane_peaks.h"
#include "session/engine_error.h"
#include "session/file_paths.h"
#include "session/ort_runner.h"
#include "session/pte_runner.h"

namespace htp {
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string ShapeString(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

std::vector<int64_t> InputShape(const PreprocessSpec& p, int batch) {
  return p.nchw ? std::vector<int64_t>{batch, p.channels, p.dst_height, p.dst_width}
                : std::vector<int64_t>{batch, p.dst_height, p.dst_width, p.channels};
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
  if (!IsRegularFile(model_path))
    throw EngineError("ERR_MODEL_NOT_FOUND", "model file " + model_path + " does not exist or is not a file");
  return IsExecuTorchProgram(model_path) ? InspectPteProgram(model_path) : InspectOnnxModel(model_path);
}

std::shared_ptr<SessionCore> SessionCore::Load(const LoadSpec& spec) {
  return std::shared_ptr<SessionCore>(new SessionCore(spec));
}

SessionCore::SessionCore(const LoadSpec& s) : spec_(s) {
  if (!IsRegularFile(s.model_path))
    throw EngineError("ERR_MODEL_NOT_FOUND", "model file " + s.model_path + " does not exist or is not a file");
  if (IsExecuTorchProgram(s.model_path)) {
    runner_ = std::make_unique<PteRunner>(s);
  } else {
    runner_ = std::make_unique<OrtRunner>(s);
  }
  model_ = runner_->model();
  placement_ = runner_->placement();
  model_source_ = runner_->model_source();
  context_cache_written_ = runner_->context_cache_written();
  delegates_ = runner_->delegates();
  outputs_in_place_ = runner_->outputs_in_place();
  runtime_name_ = runner_->runtime();
  CheckInput();
  CheckBatchedOutputs();
  ResolvePeaksOutput();
  slot_bytes_ = OutputBytes(s.preprocess);
  input_buffer_.resize(slot_bytes_ * static_cast<size_t>(s.batch));
  padded_.assign(static_cast<size_t>(s.batch), PaddedRect{});
#ifdef __GLIBC__
  // Building a session (parsing the model, optimizing the graph, packing weights) leaves tens of
  // megabytes of freed blocks inside malloc's arenas, which glibc keeps; hand them back once.
  // bench:soak, INT8 YOLOv8s: configured RSS 234 -> 207 MB.
  malloc_trim(0);
#endif
}

// The peaks output must be a float one: float16 arrives widened (CopyToHost), integer heatmaps
// are left to the heads, which know their quantization.
void SessionCore::ResolvePeaksOutput() {
  if (spec_.peaks_output.empty()) return;
  for (size_t i = 0; i < model_.outputs.size(); ++i) {
    const TensorDesc& o = model_.outputs[i];
    if (o.name != spec_.peaks_output) continue;
    if (o.type != kElementFloat && o.type != kElementFloat16)
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

ArenaUsage SessionCore::arena_usage() const {
  // The runner guards its own copy; after Dispose there is no runner and nothing to report.
  if (disposed_.load()) return {};
  return runner_->arena_usage();
}

// TypeScript chose the input from the probe; the real session (possibly an EP context cache) must
// agree, or the preprocessing would write a tensor of the wrong shape or type.
void SessionCore::CheckInput() const {
  const PreprocessSpec& p = spec_.preprocess;
  const std::vector<int64_t> want = InputShape(p, spec_.batch);
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

// Batched, each output must carry the batch on its leading axis, or its results could not be
// handed back frame by frame.
void SessionCore::CheckBatchedOutputs() const {
  if (spec_.batch == 1) return;
  for (const TensorDesc& o : model_.outputs) {
    if (!o.dims.empty() && (o.dims[0] == spec_.batch || o.dims[0] == -1)) continue;
    throw EngineError("ERR_INPUT_MISMATCH", "output " + o.name + " " + ShapeString(o.dims) + " of " +
                                                spec_.model_path + " has no leading batch axis of " +
                                                std::to_string(spec_.batch) + ": the model cannot run batched");
  }
}

RunOutput SessionCore::Run(const FrameView& frame, const Roi& roi, const KeyValues& run_options) {
  return std::move(RunSlots({frame}, {roi}, run_options).front());
}

std::vector<RunOutput> SessionCore::RunBatch(const std::vector<FrameView>& frames, const KeyValues& run_options) {
  if (frames.empty() || frames.size() > static_cast<size_t>(spec_.batch))
    throw EngineError("ERR_FRAME_INVALID", "runBatch: " + std::to_string(frames.size()) +
                                               " frames for a session of batch " + std::to_string(spec_.batch));
  return RunSlots(frames, std::vector<Roi>(frames.size()), run_options);
}

std::vector<RunOutput> SessionCore::RunSlots(const std::vector<FrameView>& frames, const std::vector<Roi>& rois,
                                             const KeyValues& run_options) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  if (!runner_) throw EngineError("ERR_DISPOSED", "session was disposed");
  std::vector<RunOutput> outs(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const auto t0 = Clock::now();
    outs[i].transform =
        Preprocess(frames[i], rois[i], spec_.preprocess, input_buffer_.data() + i * slot_bytes_, &padded_[i]);
    outs[i].preprocess_ms = Ms(t0, Clock::now());
  }
  const auto t1 = Clock::now();
  std::vector<HostTensor> batch;
  runner_->Run(input_buffer_.data(), input_buffer_.size(), InputShape(spec_.preprocess, spec_.batch),
               spec_.input_type, run_options, &batch);
  const double inference_ms = Ms(t1, Clock::now());
  for (const HostTensor& t : batch) (t.in_place ? in_place_writes_ : copied_writes_).fetch_add(1);
  for (size_t i = 0; i < outs.size(); ++i) {
    RunOutput& out = outs[i];
    if (spec_.batch == 1) {
      out.outputs = std::move(batch);
    } else {
      for (const HostTensor& t : batch) out.outputs.push_back(SliceBatchItem(t, i, spec_.batch));
    }
    if (peaks_index_ >= 0 && static_cast<size_t>(peaks_index_) < out.outputs.size())
      ScanPeaks(out.outputs[peaks_index_], spec_.peaks_channels_last, &out.peaks);
    out.inference_ms = inference_ms;
  }
  return outs;
}

void SessionCore::SetDynamicOptions(const KeyValues& options) {
  if (disposed_.load() || !runner_) throw EngineError("ERR_DISPOSED", "session was disposed");
  runner_->SetDynamicOptions(options);
}

void SessionCore::Dispose() {
  if (in_flight > 0)
    throw EngineError("ERR_BUSY", "cannot dispose: " + std::to_string(in_flight.load()) +
                                      " run(s) in flight; await them first");
  std::lock_guard<std::mutex> lock(run_mutex_);
  runner_.reset();
  // The JS wrapper (and with it this core) lives until V8 collects it, and V8 does not see native
  // memory: free the input tensor now, or every configure/cleanup cycle leaves megabytes behind.
  std::vector<uint8_t>().swap(input_buffer_);
  padded_.clear();
  disposed_ = true;
#ifdef __GLIBC__
  // A freed session leaves its weights' pages in glibc's heaps; hand them back so a long-running
  // node that reconfigures does not keep every past session's high-water mark.
  malloc_trim(0);
#endif
}

}  // namespace htp
