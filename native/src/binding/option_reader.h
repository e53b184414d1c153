// Copies the plain objects TypeScript builds (src/engine/nativeAddon.ts types them) into the
// structs of session_core.h, on the main thread. Every key is required: zod is the only place
// with defaults, so a missing or mistyped key is a bug that must show, not a silent default.
// All calls are sync and throw Napi::TypeError (wrong or missing type) or Napi::RangeError (value
// out of range), with a `code` and a message that names the key path, e.g.
// "options.preprocess.padValue: expected number".
#pragma once
#include <napi.h>

#include <string>

#include "session/session_core.h"

namespace htp {

// loadSession(options): code ERR_INVALID_OPTIONS.
LoadSpec ReadLoadSpec(const Napi::Value& options);

// run(frame, roi, runOptions): codes ERR_FRAME_INVALID, ERR_ROI_INVALID, ERR_INVALID_OPTIONS.
// `data` receives the frame's Uint8Array so the caller can keep it alive during the run.
FrameView ReadFrame(const Napi::Value& frame, Napi::Uint8Array* data);
Roi ReadRoi(const Napi::Value& roi);  // null: the whole frame
KeyValues ReadStringMap(const Napi::Value& map, const std::string& path);

// An Error whose `code` is one of docs/engine.md's stable codes.
Napi::Error CodedError(Napi::Env env, const std::string& code, const std::string& message);

}  // namespace htp
