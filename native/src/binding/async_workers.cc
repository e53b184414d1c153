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

RunWorker::RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, const std::vector<HeldFrame>& frames,
                     std::vector<Roi> rois, Mode mode, KeyValues run_options)
    : PromiseWorker(env, "htp_engine.run"),
      core_(std::move(core)),
      rois_(std::move(rois)),
      mode_(mode),
      run_options_(std::move(run_options)),
      called_(Clock::now()) {
  for (const HeldFrame& f : frames) {
    frame_refs_.push_back(Napi::Persistent(f.data));
    frames_.push_back(f.view);
  }
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
    if (mode_ == Mode::kBatch) {
      FaultBeforeRun(core_->spec().model_path);
      outputs_ = core_->RunBatch(frames_, run_options_);
      ended_.assign(outputs_.size(), Clock::now());
      return;
    }
    for (const Roi& roi : rois_) {
      FaultBeforeRun(core_->spec().model_path);
      outputs_.push_back(core_->Run(frames_[0], roi, run_options_));
      ended_.push_back(Clock::now());
    }
  });
}

void RunWorker::OnOK() {
  Release();
  Napi::Env env = Env();
  if (mode_ == Mode::kOne) {
    deferred_.Resolve(RunOutputToJs(env, std::move(outputs_[0]), Ms(called_, started_), Ms(called_, Clock::now())));
    return;
  }
  // A batch's frames all waited for the hand-over; of a frame's regions only the first did. Each
  // total runs from the call to its end.
  Napi::Array all = Napi::Array::New(env, outputs_.size());
  for (uint32_t i = 0; i < outputs_.size(); ++i) {
    const double queue_ms = i == 0 || mode_ == Mode::kBatch ? Ms(called_, started_) : 0.0;
    all.Set(i, RunOutputToJs(env, std::move(outputs_[i]), queue_ms, Ms(called_, ended_[i])));
  }
  deferred_.Resolve(all);
}

void RunWorker::OnError(const Napi::Error& e) {
  Release();
  PromiseWorker::OnError(e);
}

}  // namespace htp
