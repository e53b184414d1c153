// The peak of every channel of a heatmap tensor: the largest value (NaN never wins, the first
// index on ties) and where it is. Called by the heads' planePeaks kernel on the main thread and by
// SessionCore::Run on the worker, right after the model wrote the values (see session_core.h).
// Both write, per channel, value then index into `out`: -Infinity and 0 for a channel without a
// value above -Infinity, as the heads' TypeScript loops do.
#pragma once
#include <cstddef>

namespace htp {

// Channels-first: `planes` consecutive planes of `plane` values each.
void FindPlanePeaks(const float* p, size_t planes, size_t plane, double* out);

// Channels-last: `items` blocks of `pixels` x `channels` interleaved values; out per (item,
// channel) in that order, the index counted in pixels.
void FindChannelPeaks(const float* p, size_t items, size_t pixels, size_t channels, double* out);

}  // namespace htp
