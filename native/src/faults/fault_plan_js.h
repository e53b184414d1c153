// setFaultPlan(plan) and faultCounts(): the JS side of the tests' fault switch (fault_plan.h).
#pragma once
#include <napi.h>

namespace htp {

// setFaultPlan({model, failRuns: [first, last], hangRuns, hangMs, failLoads}): every field
// optional; TypeScript validated them (src/engine/testFaultPlan.ts), this only refuses wrong types.
Napi::Value SetFaultPlanJs(const Napi::CallbackInfo& info);
// faultCounts() -> {runs, loads} counted for the plan's sessions since it was set.
Napi::Value FaultCountsJs(const Napi::CallbackInfo& info);

}  // namespace htp
