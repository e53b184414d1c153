// The engine's fault switch, for tests only: what a QCS6490 does when the DSP restarts or its
// FastRPC session drops (runs fail, a new session cannot be created for a while, a run never
// returns) cannot be provoked on a machine without one, yet the nodes' answer to it must be tested
// on every machine. Nothing sets a plan unless the process was started with the test variable
// (src/engine/testFaultPlan.ts); without a plan the hooks are one relaxed atomic load.
#pragma once
#include <cstdint>
#include <string>

namespace htp {

struct FaultRange {
  int64_t first = 0, last = -1;  // 1-based, inclusive; empty when last < first
  bool Holds(int64_t n) const { return n >= first && n <= last; }
};

struct FaultPlan {
  std::string model;  // only sessions whose model path contains this ("" for every session)
  FaultRange fail_runs, hang_runs, fail_loads;
  int hang_ms = 0;
};

struct FaultCounts {
  int64_t runs = 0, loads = 0;
};

// Replaces the plan and zeroes the counts (main thread).
void SetFaultPlan(const FaultPlan& plan);
FaultCounts CurrentFaultCounts();

// Worker thread, before a session is created for `model_path`: throws EngineError ERR_RUNTIME
// when the plan fails this load.
void FaultBeforeLoad(const std::string& model_path);
// Worker thread, before each model run (each region of runMany): sleeps for a hanging run, then
// throws EngineError ERR_RUNTIME when the plan fails it.
void FaultBeforeRun(const std::string& model_path);

}  // namespace htp
