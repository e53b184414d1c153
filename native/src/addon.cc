// Module entry: exports inspectModel(), loadSession() and the EngineSession class, plus the ORT version.
#include <napi.h>

#include <cstdlib>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "engine_session.h"

namespace {
// glibc raises its mmap threshold each time a large block is freed, so after the first session is
// disposed, model weights and tensors of later sessions come from the heap and fragment it: RSS
// crept up ~0.5 MB per configure/cleanup cycle (engine alone: 165 -> 207 MB over 100 cycles; flat
// at ~157 MB with a fixed threshold). A fixed threshold keeps large blocks in their own mappings,
// returned to the system when freed. It sits above a camera frame (1920x1080 rgb8 is 6.2 MB): the
// serialized image rmw takes and the Buffer rclnodejs copies it into are allocated per frame, and
// a fresh mapping each time costs its page faults (at a 256 KB threshold, 1280x720 frames reached
// the node ~4 ms later than a bare subscriber's, bench:e2e). Trimming at twice the threshold is
// glibc's own rule when it adjusts them. A user's own MALLOC_MMAP_THRESHOLD_ wins.
constexpr int kMmapThreshold = 8 * 1024 * 1024;

void FixMmapThreshold() {
#ifdef __GLIBC__
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, 2 * kMmapThreshold);
  }
#endif
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  FixMmapThreshold();
  exports.Set("EngineSession", htp::EngineSession::Define(env));
  exports.Set("inspectModel", Napi::Function::New(env, htp::EngineSession::Inspect, "inspectModel"));
  exports.Set("loadSession", Napi::Function::New(env, htp::EngineSession::Load, "loadSession"));
  exports.Set("ortVersion", Napi::String::New(env, Ort::GetVersionString()));
  exports.Set("ortApiVersion", Napi::Number::New(env, ORT_API_VERSION));
  return exports;
}
}  // namespace

NODE_API_MODULE(htp_engine, Init)
