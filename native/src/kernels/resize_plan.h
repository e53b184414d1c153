// Where each input pixel samples the frame: the crop, letterbox or stretch scale, padding and the
// bilinear positions per axis, planned once per frame from the ROI and the spec (sync, pure, no
// N-API). PlanResize throws EngineError ERR_ROI_INVALID for a ROI its mode does not allow.
#pragma once
#include <vector>

#include "kernels/preprocess.h"

namespace htp {

// Per sampled input pixel: the two source neighbours (pixel indices) and the weight of i1.
struct Axis {
  std::vector<int> i0, i1;
  std::vector<float> w1;
};

// Which input pixels (along one axis) are sampled, and from where.
struct Span {
  int first = 0;  // first sampled input pixel; the ones before and after `axis` are padding
  Axis axis;
};

// The sampled rectangle of the input; everything around it is padding.
struct Geometry {
  Span x, y;
};

struct ResizePlan {
  Transform transform;  // what the caller returns, to map results back onto the frame
  Geometry geometry;    // what the resampler reads
};

// `frame` must already be checked (positive size, step and data large enough); roi width =
// height = 0 means the whole frame.
ResizePlan PlanResize(const FrameView& frame, const Roi& roi, const PreprocessSpec& spec);

}  // namespace htp
