#include "binding/async_workers.h"

#include <utility>

#include "session/engine_error.h"
#include "faults/fault_plan.h"
#include "binding/js_values.h"
#include "binding/option_reader.h"

namespace htp {
namespace {

double Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

PromiseWorker::PromiseWorker(Napi::Env env, const char* resource_name)
    : Napi::AsyncWorker(env, resource_name), deferred_(Napi::Promise::Deferred::New(env)) {}

void PromiseWorker::Guard(const std::function<void()>& work) {
  try {
    work();
  } catch (const EngineError& e) {
    code_ = e.code();
    SetError(e.what());
  } catch (const std::exception& e) {
    code_ = "ERR_RUNTIME";
    SetError(e.what());
  }
}

void PromiseWorker::OnError(const Napi::Error& e) {
  deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
}

InspectWorker::InspectWorker(Napi::Env env, std::string model_path)
    : PromiseWorker(env, "htp_engine.inspect"), model_path_(std::move(model_path)) {}

void InspectWorker::Execute() {
  Guard([&] { model_ = InspectModel(model_path_); });
}
void InspectWorker::OnOK() { deferred_.Resolve(ModelDescToJs(Env(), model_)); }

LoadWorker::LoadWorker(Napi::Env env, LoadSpec spec, Wrap wrap)
    : PromiseWorker(env, "htp_engine.load"), spec_(std::move(spec)), wrap_(std::move(wrap)) {}

void LoadWorker::Execute() {
  Guard([&] {
    FaultBeforeLoad(spec_.model_path);
    core_ = SessionCore::Load(spec_);
  });
}
void LoadWorker::OnOK() { deferred_.Resolve(wrap_(Env(), core_)); }

RunWorker::RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Uint8Array frame_data, FrameView frame,
                     std::vector<Roi> rois, bool many, KeyValues run_options)
    : PromiseWorker(env, "htp_engine.run"),
      core_(std::move(core)),
      frame_ref_(Napi::Persistent(frame_data)),
      frame_(frame),
      rois_(std::move(rois)),
      many_(many),
      run_options_(std::move(run_options)),
      called_(Clock::now()) {
  core_->in_flight++;
}

RunWorker::~RunWorker() { Release(); }

void RunWorker::Release() {
  if (counted_) core_->in_flight--;
  counted_ = false;
}

void RunWorker::Execute() {
  started_ = Clock::now();
  Guard([&] {
    for (const Roi& roi : rois_) {
      FaultBeforeRun(core_->spec().model_path);
      outputs_.push_back(core_->Run(frame_, roi, run_options_));
      ended_.push_back(Clock::now());
    }
  });
}

void RunWorker::OnOK() {
  Release();
  Napi::Env env = Env();
  if (!many_) {
    deferred_.Resolve(RunOutputToJs(env, std::move(outputs_[0]), Ms(called_, started_), Ms(called_, Clock::now())));
    return;
  }
  // Only the first region waited for the hand-over; each total runs from the call to its end.
  Napi::Array all = Napi::Array::New(env, outputs_.size());
  for (uint32_t i = 0; i < outputs_.size(); ++i) {
    const double queue_ms = i == 0 ? Ms(called_, started_) : 0.0;
    all.Set(i, RunOutputToJs(env, std::move(outputs_[i]), queue_ms, Ms(called_, ended_[i])));
  }
  deferred_.Resolve(all);
}

void RunWorker::OnError(const Napi::Error& e) {
  Release();
  PromiseWorker::OnError(e);
}

}  // namespace htp
