#include "faults/fault_plan.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "session/engine_error.h"

namespace htp {
namespace {

std::atomic<bool> g_armed{false};
std::mutex g_mutex;
FaultPlan g_plan;
FaultCounts g_counts;

bool Targets(const std::string& model_path) {
  return g_plan.model.empty() || model_path.find(g_plan.model) != std::string::npos;
}

}  // namespace

void SetFaultPlan(const FaultPlan& plan) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_plan = plan;
  g_counts = FaultCounts{};
  g_armed.store(true, std::memory_order_relaxed);
}

FaultCounts CurrentFaultCounts() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_counts;
}

void FaultBeforeLoad(const std::string& model_path) {
  if (!g_armed.load(std::memory_order_relaxed)) return;
  int64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!Targets(model_path)) return;
    n = ++g_counts.loads;
    if (!g_plan.fail_loads.Holds(n)) return;
  }
  throw EngineError("ERR_RUNTIME", "session " + std::to_string(n) + " of " + model_path +
                                       " not created: injected fault (test fault plan, as when the "
                                       "DSP cannot be reached)");
}

void FaultBeforeRun(const std::string& model_path) {
  if (!g_armed.load(std::memory_order_relaxed)) return;
  int64_t n = 0;
  bool hang = false, fail = false;
  int hang_ms = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!Targets(model_path)) return;
    n = ++g_counts.runs;
    hang = g_plan.hang_runs.Holds(n);
    fail = g_plan.fail_runs.Holds(n);
    hang_ms = g_plan.hang_ms;
  }
  if (hang) std::this_thread::sleep_for(std::chrono::milliseconds(hang_ms));
  if (fail) {
    throw EngineError("ERR_RUNTIME", "run " + std::to_string(n) + " of " + model_path +
                                         " failed: injected fault (test fault plan, as when the DSP "
                                         "restarts mid-run)");
  }
}

}  // namespace htp
