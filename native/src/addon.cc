// Module entry: exports inspectModel(), loadSession() and the EngineSession class, plus the ORT version.
#include <napi.h>

#include "engine_session.h"
#include "malloc_tuning.h"

namespace {
Napi::Object Init(Napi::Env env, Napi::Object exports) {
  htp::TuneMalloc();
  exports.Set("EngineSession", htp::EngineSession::Define(env));
  exports.Set("inspectModel", Napi::Function::New(env, htp::EngineSession::Inspect, "inspectModel"));
  exports.Set("loadSession", Napi::Function::New(env, htp::EngineSession::Load, "loadSession"));
  exports.Set("ortVersion", Napi::String::New(env, Ort::GetVersionString()));
  exports.Set("ortApiVersion", Napi::Number::New(env, ORT_API_VERSION));
  return exports;
}
}  // namespace

NODE_API_MODULE(htp_engine, Init)
