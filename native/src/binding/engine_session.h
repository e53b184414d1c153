// The addon's JS surface (typed in src/engine/nativeAddon.ts, the only module that loads it).
//   inspectModel(path)              async -> Promise<{inputs, outputs}>; never throws, rejects with
//                                            Error{code} (ERR_MODEL_NOT_FOUND, ERR_MODEL_INVALID)
//   loadSession(options)            async -> Promise<EngineSession>; never throws, rejects with
//                                            TypeError/RangeError{code: ERR_INVALID_OPTIONS} for a
//                                            missing or mistyped key, Error{code} for load failures
//   session.info()                  sync  -> {inputs, outputs, providers, ...}; throws ERR_DISPOSED
//   session.run(frame, roi, opts)   async -> Promise<{outputs, transform, timings}>; never throws:
//                                            every fault (argument types included) rejects, with
//                                            ERR_DISPOSED, ERR_BUSY (one run at a time),
//                                            ERR_FRAME_INVALID, ERR_ROI_INVALID or ERR_RUNTIME
//   session.runMany(frame, rois, o) async -> Promise<[{outputs, transform, timings}, ...]>, one per
//                                            region, run back to back on one worker; rejects as
//                                            run() does, on the first region that fails
//   session.runBatch(frames, opts)  async -> Promise<[{outputs, transform, timings}, ...]>, one per
//                                            frame (1 to the session's batch), run as one batched
//                                            run of the model; rejects as run() does
//   session.setDynamicOptions(obj)  sync  -> throws Error{code} (ERR_DISPOSED, ERR_RUNTIME)
//   session.dispose()               sync  -> throws ERR_BUSY while a run is in flight; idempotent
//   session.inFlight                sync  -> number of runs not yet settled
//   session.outputWrites()          sync  -> {inPlace, copied}: the outputs of all runs so far the
//                                            runtime wrote straight into the memory handed to JS,
//                                            and those copied out of its own afterwards
//   session.arenaUsage()            sync  -> {reservedBytes, inUseBytes, peakInUseBytes, extensions}
//                                            of the session's CPU arena after its last run, or null
//                                            (no run yet, no statistics); never waits on a run
// Heavy work (model loading, preprocessing, inference) runs on libuv workers (async_workers.h).
#pragma once
#include <napi.h>

#include <memory>

#include "binding/async_workers.h"
#include "session/session_core.h"

namespace htp {

class EngineSession : public Napi::ObjectWrap<EngineSession> {
 public:
  static Napi::Function Define(Napi::Env env);
  static Napi::Value Inspect(const Napi::CallbackInfo& info);
  static Napi::Value Load(const Napi::CallbackInfo& info);
  explicit EngineSession(const Napi::CallbackInfo& info);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Run(const Napi::CallbackInfo& info);
  Napi::Value RunMany(const Napi::CallbackInfo& info);
  Napi::Value RunBatch(const Napi::CallbackInfo& info);
  Napi::Value StartRun(const Napi::CallbackInfo& info, RunWorker::Mode mode);
  Napi::Value SetDynamicOptions(const Napi::CallbackInfo& info);
  Napi::Value Dispose(const Napi::CallbackInfo& info);
  Napi::Value InFlight(const Napi::CallbackInfo& info);
  Napi::Value ArenaUsageJs(const Napi::CallbackInfo& info);
  Napi::Value OutputWritesJs(const Napi::CallbackInfo& info);
  void CheckLive(Napi::Env env) const;

  std::shared_ptr<SessionCore> core_;
};

}  // namespace htp
