// Module entry: exports inspectModel(), loadSession() and the EngineSession class, the ORT version,
// whether the ExecuTorch plug-in loads (executorchRuntime()),
// the glibc thresholds the addon fixed (mallocThresholds()) and what glibc holds (mallocUsage():
// malloc_usage.h), the heads' output kernels (planePeaks(), remapLabels(), yoloBestClasses():
// output_kernels.h), the label images' memory (zeroedBytes(), zeroedBytesStats()) and the pool of
// run outputs (outputBlocksStats(): recycled_bytes.h), and the tests' fault switch (setFaultPlan(),
// faultCounts(): fault_plan.h).
#include <napi.h>
#include <onnxruntime_cxx_api.h>

#include "binding/engine_session.h"
#include "session/pte_runner.h"
#include "faults/fault_plan_js.h"
#include "memory/malloc_tuning.h"
#include "memory/malloc_usage.h"
#include "kernels/output_kernels.h"
#include "memory/recycled_bytes.h"

namespace {
Napi::Object Init(Napi::Env env, Napi::Object exports) {
  htp::TuneMalloc();
  exports.Set("EngineSession", htp::EngineSession::Define(env));
  exports.Set("inspectModel", Napi::Function::New(env, htp::EngineSession::Inspect, "inspectModel"));
  exports.Set("loadSession", Napi::Function::New(env, htp::EngineSession::Load, "loadSession"));
  exports.Set("ortVersion", Napi::String::New(env, Ort::GetVersionString()));
  exports.Set("ortApiVersion", Napi::Number::New(env, ORT_API_VERSION));
  // The ExecuTorch plug-in, opened on this first call (pte_runner.h): {version} or {error}.
  exports.Set("executorchRuntime", Napi::Function::New(env, [](const Napi::CallbackInfo& info) -> Napi::Value {
    std::string why;
    const std::string version = htp::ExecuTorchVersion(&why);
    Napi::Object o = Napi::Object::New(info.Env());
    if (version.empty()) {
      o.Set("error", why);
    } else {
      o.Set("version", version);
    }
    return o;
  }, "executorchRuntime"));
  exports.Set("planePeaks", Napi::Function::New(env, htp::PlanePeaks, "planePeaks"));
  exports.Set("remapLabels", Napi::Function::New(env, htp::RemapLabels, "remapLabels"));
  exports.Set("yoloBestClasses", Napi::Function::New(env, htp::YoloBestClasses, "yoloBestClasses"));
  exports.Set("zeroedBytes", Napi::Function::New(env, htp::ZeroedBytes, "zeroedBytes"));
  exports.Set("zeroedBytesStats", Napi::Function::New(env, htp::ZeroedBytesStats, "zeroedBytesStats"));
  exports.Set("outputBlocksStats", Napi::Function::New(env, htp::OutputBlocksStats, "outputBlocksStats"));
  // The tests' fault switch (fault_plan.h): inert until a plan is set.
  exports.Set("setFaultPlan", Napi::Function::New(env, htp::SetFaultPlanJs, "setFaultPlan"));
  exports.Set("faultCounts", Napi::Function::New(env, htp::FaultCountsJs, "faultCounts"));
  exports.Set("mallocThresholds", Napi::Function::New(env, [](const Napi::CallbackInfo& info) -> Napi::Value {
    const htp::MallocThresholds t = htp::FixedMallocThresholds();
    if (!t.fixed) return info.Env().Null();
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("mmapThreshold", t.mmap_threshold);
    o.Set("trimThreshold", t.trim_threshold);
    return o;
  }, "mallocThresholds"));
  exports.Set("mallocUsage", Napi::Function::New(env, htp::MallocUsageJs, "mallocUsage"));
  return exports;
}
}  // namespace

NODE_API_MODULE(htp_engine, Init)
