// Builds the JS values the addon returns from the plain structs of session_core.h.
// Main thread only (completion callbacks and sync methods); nothing here throws on its own.
#pragma once
#include <napi.h>

#include "session_core.h"

namespace htp {

// {inputs, outputs}: each {name, dims (-1 dynamic), symbolicDims, type (ONNX element code)}.
Napi::Object ModelDescToJs(Napi::Env env, const ModelDesc& model);

// ModelDescToJs plus {providers: {requested, assignmentKnown, note, counts, cpuNodes},
// modelSource, contextCacheWritten}.
Napi::Object SessionInfoToJs(Napi::Env env, const SessionCore& core);

// {outputs: [{name, dims, type, data: ArrayBuffer}], transform, timings}. Takes the output memory:
// each ArrayBuffer owns its tensor and frees it when collected (no copy).
Napi::Object RunOutputToJs(Napi::Env env, RunOutput&& run, double queue_ms, double total_ms);

}  // namespace htp
