#include "faults/fault_plan_js.h"

#include <string>

#include "faults/fault_plan.h"
#include "binding/option_reader.h"

namespace htp {
namespace {

FaultRange ReadRange(Napi::Env env, const Napi::Object& o, const char* key) {
  FaultRange r;
  if (!o.Has(key) || o.Get(key).IsUndefined()) return r;
  Napi::Value v = o.Get(key);
  if (!v.IsArray() || v.As<Napi::Array>().Length() != 2)
    throw CodedError(env, "ERR_INVALID_OPTIONS", std::string("setFaultPlan: ") + key + ": expected [first, last]");
  Napi::Array a = v.As<Napi::Array>();
  if (!a.Get(0u).IsNumber() || !a.Get(1u).IsNumber())
    throw CodedError(env, "ERR_INVALID_OPTIONS", std::string("setFaultPlan: ") + key + ": expected numbers");
  r.first = a.Get(0u).As<Napi::Number>().Int64Value();
  r.last = a.Get(1u).As<Napi::Number>().Int64Value();
  return r;
}

}  // namespace

Napi::Value SetFaultPlanJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() != 1 || !info[0].IsObject())
    throw CodedError(env, "ERR_INVALID_OPTIONS", "setFaultPlan(plan): plan: expected an object");
  Napi::Object o = info[0].As<Napi::Object>();
  FaultPlan plan;
  if (o.Has("model") && o.Get("model").IsString()) plan.model = o.Get("model").As<Napi::String>().Utf8Value();
  plan.fail_runs = ReadRange(env, o, "failRuns");
  plan.hang_runs = ReadRange(env, o, "hangRuns");
  plan.fail_loads = ReadRange(env, o, "failLoads");
  if (o.Has("hangMs") && o.Get("hangMs").IsNumber()) plan.hang_ms = o.Get("hangMs").As<Napi::Number>().Int32Value();
  SetFaultPlan(plan);
  return env.Undefined();
}

Napi::Value FaultCountsJs(const Napi::CallbackInfo& info) {
  const FaultCounts c = CurrentFaultCounts();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("runs", Napi::Number::New(info.Env(), static_cast<double>(c.runs)));
  o.Set("loads", Napi::Number::New(info.Env(), static_cast<double>(c.loads)));
  return o;
}

}  // namespace htp
