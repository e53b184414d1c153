// One frame's colour conversion and encoding on a libuv worker thread, off the node's executor
// and its inference; resolves with the access units that came out and what the work cost.
#pragma once

#include <napi.h>

#include <memory>

#include "encoder_state.h"

namespace htpv {

Napi::Promise StartEncode(Napi::Env env, std::shared_ptr<EncoderState> state, Napi::Uint8Array rgb, int64_t pts,
                          bool force_idr);

}  // namespace htpv
