// Writes the network input from the frame along a resize plan: padding around the sampled
// rectangle, separable bilinear blending, channel order, normalization and, for uint8 / int8
// inputs, quantization, in one pass with no intermediate image (sync, pure, no N-API; throws no
// EngineError: Preprocess checked the frame and PlanResize the ROI).
#pragma once
#include "kernels/preprocess.h"
#include "kernels/resize_plan.h"

namespace htp {

// Writes OutputBytes(spec) bytes to `out`.
void ResampleBilinear(const FrameView& frame, const Geometry& geometry, const PreprocessSpec& spec, void* out,
                      PaddedRect* padded);

}  // namespace htp
