#include "async_workers.h"

#include <optional>
#include <utility>

#include "engine_error.h"
#include "js_values.h"
#include "option_reader.h"

namespace htp {
namespace {

double Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Runs `work`; any exception becomes a message (returned) and its stable code (in `code`).
template <typename F>
std::optional<std::string> Guarded(std::string* code, F&& work) {
  try {
    work();
    return std::nullopt;
  } catch (const EngineError& e) {
    *code = e.code();
    return std::string(e.what());
  } catch (const std::exception& e) {
    *code = "ERR_RUNTIME";
    return std::string(e.what());
  }
}

}  // namespace

InspectWorker::InspectWorker(Napi::Env env, std::string model_path)
    : Napi::AsyncWorker(env, "htp_engine.inspect"),
      deferred_(Napi::Promise::Deferred::New(env)),
      model_path_(std::move(model_path)) {}

void InspectWorker::Execute() {
  if (auto err = Guarded(&code_, [&] { model_ = InspectModel(model_path_); })) SetError(*err);
}
void InspectWorker::OnOK() { deferred_.Resolve(ModelDescToJs(Env(), model_)); }
void InspectWorker::OnError(const Napi::Error& e) {
  deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
}

LoadWorker::LoadWorker(Napi::Env env, LoadSpec spec, Wrap wrap)
    : Napi::AsyncWorker(env, "htp_engine.load"),
      deferred_(Napi::Promise::Deferred::New(env)),
      spec_(std::move(spec)),
      wrap_(std::move(wrap)) {}

void LoadWorker::Execute() {
  if (auto err = Guarded(&code_, [&] { core_ = SessionCore::Load(spec_); })) SetError(*err);
}
void LoadWorker::OnOK() { deferred_.Resolve(wrap_(Env(), core_)); }
void LoadWorker::OnError(const Napi::Error& e) {
  deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
}

RunWorker::RunWorker(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Uint8Array frame_data, FrameView frame,
                     Roi roi, KeyValues run_options)
    : Napi::AsyncWorker(env, "htp_engine.run"),
      deferred_(Napi::Promise::Deferred::New(env)),
      core_(std::move(core)),
      frame_ref_(Napi::Persistent(frame_data)),
      frame_(frame),
      roi_(roi),
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
  if (auto err = Guarded(&code_, [&] { output_ = core_->Run(frame_, roi_, run_options_); })) SetError(*err);
}

void RunWorker::OnOK() {
  Release();
  Napi::Env env = Env();
  deferred_.Resolve(RunOutputToJs(env, std::move(output_), Ms(called_, started_), Ms(called_, Clock::now())));
}

void RunWorker::OnError(const Napi::Error& e) {
  Release();
  deferred_.Reject(CodedError(Env(), code_, e.Message()).Value());
}

}  // namespace htp
