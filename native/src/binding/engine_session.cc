#include "binding/engine_session.h"

#include <utility>

#include "binding/async_workers.h"
#include "session/engine_error.h"
#include "binding/js_values.h"
#include "binding/option_reader.h"

namespace htp {
namespace {

struct Constructor {
  Napi::FunctionReference ctor;
};

// Settles at once: the methods that return promises report every fault the same way.
Napi::Value Rejected(Napi::Env env, const Napi::Error& e) {
  auto d = Napi::Promise::Deferred::New(env);
  d.Reject(e.Value());
  return d.Promise();
}

Napi::Value NewSession(Napi::Env env, std::shared_ptr<SessionCore> core) {
  auto* holder = new std::shared_ptr<SessionCore>(std::move(core));
  auto ext = Napi::External<std::shared_ptr<SessionCore>>::New(
      env, holder, [](Napi::Env, std::shared_ptr<SessionCore>* p) { delete p; });
  return env.GetInstanceData<Constructor>()->ctor.New({ext});
}

}  // namespace

Napi::Function EngineSession::Define(Napi::Env env) {
  Napi::Function f = DefineClass(env, "EngineSession",
                                 {InstanceMethod("info", &EngineSession::Info),
                                  InstanceMethod("run", &EngineSession::Run),
                                  InstanceMethod("runMany", &EngineSession::RunMany),
                                  InstanceMethod("runBatch", &EngineSession::RunBatch),
                                  InstanceMethod("setDynamicOptions", &EngineSession::SetDynamicOptions),
                                  InstanceMethod("dispose", &EngineSession::Dispose),
                                  InstanceMethod("arenaUsage", &EngineSession::ArenaUsageJs),
                                  InstanceMethod("outputWrites", &EngineSession::OutputWritesJs),
                                  InstanceAccessor("inFlight", &EngineSession::InFlight, nullptr)});
  env.SetInstanceData<Constructor>(new Constructor{Napi::Persistent(f)});
  return f;
}

EngineSession::EngineSession(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EngineSession>(info) {
  if (info.Length() != 1 || !info[0].IsExternal())
    throw Napi::TypeError::New(info.Env(), "EngineSession is created by loadSession(), not with new");
  core_ = *info[0].As<Napi::External<std::shared_ptr<SessionCore>>>().Data();
}

Napi::Value EngineSession::Inspect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString())
    return Rejected(env, CodedError(env, "ERR_INVALID_OPTIONS", "inspectModel(path): path: expected string"));
  auto* w = new InspectWorker(env, info[0].As<Napi::String>().Utf8Value());
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}

Napi::Value EngineSession::Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoadSpec spec;
  try {
    spec = ReadLoadSpec(info[0]);
  } catch (const Napi::Error& e) {
    return Rejected(env, e);
  }
  auto* w = new LoadWorker(env, std::move(spec), NewSession);
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}

void EngineSession::CheckLive(Napi::Env env) const {
  if (core_->Disposed()) throw CodedError(env, "ERR_DISPOSED", "session was disposed");
}

Napi::Value EngineSession::Info(const Napi::CallbackInfo& info) {
  CheckLive(info.Env());
  return SessionInfoToJs(info.Env(), *core_);
}

Napi::Value EngineSession::Run(const Napi::CallbackInfo& info) { return StartRun(info, RunWorker::Mode::kOne); }

Napi::Value EngineSession::RunMany(const Napi::CallbackInfo& info) {
  return StartRun(info, RunWorker::Mode::kMany);
}

Napi::Value EngineSession::RunBatch(const Napi::CallbackInfo& info) {
  return StartRun(info, RunWorker::Mode::kBatch);
}

// run(frame, roi, options) / runMany(frame, rois, options) / runBatch(frames, options): every
// fault rejects, nothing throws.
Napi::Value EngineSession::StartRun(const Napi::CallbackInfo& info, RunWorker::Mode mode) {
  Napi::Env env = info.Env();
  try {
    CheckLive(env);
    if (core_->in_flight > 0)
      throw CodedError(env, "ERR_BUSY", "a run is already in flight on this session; runs are not queued");
    std::vector<RunWorker::HeldFrame> frames;
    std::vector<Roi> rois;
    if (mode == RunWorker::Mode::kBatch) {
      const int batch = core_->spec().batch;
      if (!info[0].IsArray() || info[0].As<Napi::Array>().Length() == 0 ||
          info[0].As<Napi::Array>().Length() > static_cast<uint32_t>(batch))
        throw CodedError(env, "ERR_FRAME_INVALID",
                         "runBatch(frames, options): frames: expected an array of 1 to " + std::to_string(batch) +
                             " frames (the session's batch)");
      Napi::Array list = info[0].As<Napi::Array>();
      for (uint32_t i = 0; i < list.Length(); ++i) {
        RunWorker::HeldFrame f;
        f.view = ReadFrame(list.Get(i), &f.data);
        frames.push_back(f);
      }
    } else {
      RunWorker::HeldFrame f;
      f.view = ReadFrame(info[0], &f.data);
      frames.push_back(f);
      if (mode == RunWorker::Mode::kOne) {
        rois.push_back(ReadRoi(info[1]));
      } else {
        if (!info[1].IsArray() || info[1].As<Napi::Array>().Length() == 0)
          throw CodedError(env, "ERR_ROI_INVALID", "runMany(frame, rois): rois: expected a non-empty array");
        Napi::Array list = info[1].As<Napi::Array>();
        for (uint32_t i = 0; i < list.Length(); ++i) rois.push_back(ReadRoi(list.Get(i)));
      }
    }
    KeyValues run_options = ReadStringMap(info[mode == RunWorker::Mode::kBatch ? 1 : 2], "runOptions");
    auto* w = new RunWorker(env, core_, frames, std::move(rois), mode, std::move(run_options));
    Napi::Promise p = w->Promise();
    w->Queue();
    return p;
  } catch (const Napi::Error& e) {
    return Rejected(env, e);
  }
}

Napi::Value EngineSession::SetDynamicOptions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CheckLive(env);
  const KeyValues options = ReadStringMap(info[0], "options");
  try {
    core_->SetDynamicOptions(options);
  } catch (const EngineError& e) {
    throw CodedError(env, e.code(), e.what());
  }
  return env.Undefined();
}

Napi::Value EngineSession::Dispose(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    core_->Dispose();
  } catch (const EngineError& e) {
    throw CodedError(env, e.code(), e.what());
  }
  return env.Undefined();
}

Napi::Value EngineSession::InFlight(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), core_->in_flight.load());
}

Napi::Value EngineSession::ArenaUsageJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ArenaUsage u = core_->arena_usage();
  if (!u.known) return env.Null();
  Napi::Object o = Napi::Object::New(env);
  o.Set("reservedBytes", static_cast<double>(u.reserved_bytes));
  o.Set("inUseBytes", static_cast<double>(u.in_use_bytes));
  o.Set("peakInUseBytes", static_cast<double>(u.peak_in_use_bytes));
  o.Set("extensions", static_cast<double>(u.extensions));
  return o;
}

Napi::Value EngineSession::OutputWritesJs(const Napi::CallbackInfo& info) {
  const SessionCore::OutputWrites w = core_->output_writes();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("inPlace", static_cast<double>(w.in_place));
  o.Set("copied", static_cast<double>(w.copied));
  return o;
}

}  // namespace htp
