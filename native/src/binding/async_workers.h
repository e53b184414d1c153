// The libuv workers behind the addon's promises. Execute() runs on a worker thread and calls only
// session_core.h (no N-API); OnOK/OnError run on the main thread and settle the promise, rejecting
// with an Error whose `code` comes from the EngineError thrown on the worker.
#pragma once
#include <napi.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "session/session_core.h"

namespace htp {

// A worker that settles a promise; a failure on the worker rejects it with the failure's code.
class PromiseWorker : public Napi::AsyncWorker {
 public:
  Napi::Promise Promise() { return deferred_.Promise(); }

 protected:
  PromiseWorker(Napi::Env env, const char* resource_name);
  // Worker thread: runs `work`; an exception becomes the error (EngineError keeps its code,
  // anything else is ERR_RUNTIME).
  void Guard(const std::function<void()>& work);
  void OnError(const Napi::Error& e) override;

  Napi::Promise::Deferred deferred_;

 private:
  std::string code_;
};

// inspectModel: resolves to ModelDescToJs.
class InspectWorker : public PromiseWorker {
 public:
  InspectWorker(Napi::Env env, std::string model_path);
  void Execute() override;
  void OnOK() override;

 private:
  std::string model_path_;
  ModelDesc model_;
};

// loadSession: resolves to whatever `wrap` makes of the loaded core (the EngineSession object).
class LoadWorker : public PromiseWorker {
 public:
  using Wrap = std::function<Napi::Value(Napi::Env, std::shared_ptr<SessionCore>)>;
  LoadWorker(Napi::Env env, LoadSpec spec, Wrap wrap);
  void Execute() override;
  void OnOK() override;

 private:
  LoadSpec spec_;
  Wrap wrap_;
  std::shared_ptr<SessionCore> core_;
};

// session.run, session.runMany and session.runBatch: counts itself in core->in_flight from
// construction until just before the promise settles (so a continuation may dispose at once), and
// keeps the frames' bytes referenced until then. runMany runs its regions of one frame back to
// back on one worker (a top-down model's crops: one hand-over instead of one per person);
// runBatch runs its frames as one batched run of the model. Both resolve to an array; the first
// failure rejects the whole call.
class RunWorker : public PromiseWorker {
 public:
  enum class Mode { kOne, kMany, kBatch };
  struct HeldFrame {
    Napi::Uint8Array data;
    FrameView view;
  };
  RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, const std::vector<HeldFrame>& frames,
            std::vector<Roi> rois, Mode mode, KeyValues run_options);
  ~RunWorker() override;
  void Execute() override;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;

 private:
  void Release();

  using Clock = std::chrono::steady_clock;
  std::shared_ptr<SessionCore> core_;
  std::vector<Napi::Reference<Napi::Uint8Array>> frame_refs_;
  std::vector<FrameView> frames_;
  std::vector<Roi> rois_;
  Mode mode_;
  KeyValues run_options_;
  Clock::time_point called_, started_;
  std::vector<RunOutput> outputs_;
  std::vector<Clock::time_point> ended_;
  bool counted_ = true;
};

}  // namespace htp
