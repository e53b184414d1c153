// Builds the JS values the addon returns from the plain structs of session_core.h.
// Main thread only (completion callbacks and sync methods); nothing here throws on its own.
#pragma once
#include <napi.h>

#include "session/session_core.h"

namespace htp {

// {inputs, outputs}: each {name, dims (-1 dynamic), symbolicDims, type (ONNX element code)}.
Napi::Object ModelDescToJs(Napi::Env env, const ModelDesc& model);

// ModelDescToJs plus {providers: {requested, assignmentKnown, note, counts, cpuNodes}, runtime, delegates,
// outputsInPlace, modelSource, contextCacheWritten}.
Napi::Object SessionInfoToJs(Napi::Env env, const SessionCore& core);

// A run's result packed as [numbers: Float64Array, data0: ArrayBuffer, data1, ...], the outputs in
// the model's order; TypeScript unpacks it (src/engine/packedRunResult.ts, which spells out the
// numbers' layout). Numbers and buffers instead of named properties: setting ~25 properties from
// here interned every key through V8's string table on every run (~2 % of a node's CPU at 30 Hz).
// Takes the output memory: each ArrayBuffer owns its tensor and frees it when collected (no copy).
Napi::Array RunOutputToJs(Napi::Env env, RunOutput&& run, double queue_ms, double total_ms);

}  // namespace htp
