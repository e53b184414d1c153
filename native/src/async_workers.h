// The libuv workers behind the addon's promises. Execute() runs on a worker thread and calls only
// session_core.h (no N-API); OnOK/OnError run on the main thread and settle the promise, rejecting
// with an Error whose `code` comes from the EngineError thrown on the worker.
#pragma once
#include <napi.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "session_core.h"

namespace htp {

// inspectModel: resolves to ModelDescToJs.
class InspectWorker : public Napi::AsyncWorker {
 public:
  InspectWorker(Napi::Env env, std::string model_path);
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;

 private:
  Napi::Promise::Deferred deferred_;
  std::string model_path_, code_;
  ModelDesc model_;
};

// loadSession: resolves to whatever `wrap` makes of the loaded core (the EngineSession object).
class LoadWorker : public Napi::AsyncWorker {
 public:
  using Wrap = std::function<Napi::Value(Napi::Env, std::shared_ptr<SessionCore>)>;
  LoadWorker(Napi::Env env, LoadSpec spec, Wrap wrap);
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;

 private:
  Napi::Promise::Deferred deferred_;
  LoadSpec spec_;
  Wrap wrap_;
  std::shared_ptr<SessionCore> core_;
  std::string code_;
};

// session.run: counts itself in core->in_flight from construction until just before the promise
// settles (so a continuation may dispose at once), and keeps the frame's bytes referenced until then.
class RunWorker : public Napi::AsyncWorker {
 public:
  RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Uint8Array frame_data, FrameView frame, Roi roi,
            KeyValues run_options);
  ~RunWorker() override;
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;

 private:
  void Release();

  using Clock = std::chrono::steady_clock;
  Napi::Promise::Deferred deferred_;
  std::shared_ptr<SessionCore> core_;
  Napi::Reference<Napi::Uint8Array> frame_ref_;
  FrameView frame_;
  Roi roi_;
  KeyValues run_options_;
  Clock::time_point called_, started_;
  RunOutput output_;
  std::string code_;
  bool counted_ = true;
};

}  // namespace htp
