// EngineSession: one ONNX Runtime session plus its preprocessing spec, exposed to JS.
//   loadSession(options)            async -> Promise<EngineSession>; rejects with Error{code}
//   session.info()                  sync  -> {inputs, outputs, providers, ...} (computed at load)
//   session.run(frame, roi, opts)   async -> Promise<{outputs, transform, timings}>; one run at a time
//                                            (a second concurrent run rejects with ERR_BUSY)
//   session.setDynamicOptions(obj)  sync  -> throws Error{code} (ERR_RUNTIME) if ORT refuses
//   session.dispose()               sync  -> throws ERR_BUSY while a run is in flight
// Heavy work (session creation, preprocessing, inference) runs on libuv workers and never
// touches N-API; JS values are built in the completion callbacks on the main thread.
#pragma once
#include <napi.h>
#include <onnxruntime_cxx_api.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "preprocess.h"

namespace htp {

struct IoInfo {
  std::string name;
  std::vector<int64_t> dims;  // -1 for dynamic
  std::vector<std::string> symbolic;  // per-dim symbolic names ("" when fixed)
  ONNXTensorElementDataType type;
};

struct LoadOptions {
  std::string model_path;
  std::string provider;  // "cpu" | "htp"
  int threads = 0;
  std::string input_name;
  int pre_width = 0, pre_height = 0;
  std::string layout = "auto";  // "nchw" | "nhwc" | "auto"
  bool bgr = false;
  bool letterbox = true;
  float pad_value = 114.f;
  bool round_pixels = false;
  float mean[3] = {0, 0, 0};
  float std[3] = {255, 255, 255};
  bool has_input_quant = false;
  float input_scale = 1.f;
  int input_zero = 0;
  bool require_accelerator = false;
  // ONNX Runtime session config entries chosen by the TypeScript side (e.g. the x64 INT8 kernels).
  std::vector<std::pair<std::string, std::string>> session_config;
  // htp
  std::string provider_library;
  std::vector<std::pair<std::string, std::string>> ep_options;
  std::string context_cache_path;
  bool context_embed = true;
};

struct ProviderCount {
  std::string provider;
  int nodes;
};
struct FallbackNode {
  std::string name, op_type, provider;
};

class SessionCore {
 public:
  explicit SessionCore(const LoadOptions& o);  // runs on a worker thread
  LoadOptions opts;
  std::unique_ptr<Ort::Session> session;
  std::vector<IoInfo> inputs, outputs;
  size_t input_index = 0;
  PreprocessSpec spec;
  std::vector<uint8_t> input_buffer;
  std::vector<ProviderCount> assignment;
  std::vector<FallbackNode> fallback;
  bool assignment_known = false;
  std::string assignment_note;
  std::string model_source = "onnx";  // or "context_cache"
  bool context_cache_written = false;
  std::atomic<int> in_flight{0};
  std::mutex run_mutex;  // serializes Run with dispose on the worker side
};

class EngineSession : public Napi::ObjectWrap<EngineSession> {
 public:
  static Napi::Function Define(Napi::Env env);
  static Napi::Value Load(const Napi::CallbackInfo& info);
  explicit EngineSession(const Napi::CallbackInfo& info);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Run(const Napi::CallbackInfo& info);
  Napi::Value SetDynamicOptions(const Napi::CallbackInfo& info);
  Napi::Value Dispose(const Napi::CallbackInfo& info);
  Napi::Value InFlight(const Napi::CallbackInfo& info);
  std::shared_ptr<SessionCore> core_;
};

Napi::Error CodedError(Napi::Env env, const std::string& code, const std::string& message);

}  // namespace htp
