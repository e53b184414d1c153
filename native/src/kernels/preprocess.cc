#include "kernels/preprocess.h"

#include <string>

#include "kernels/bilinear_resample.h"
#include "session/engine_error.h"
#include "kernels/resize_plan.h"

namespace htp {

size_t BytesPerPixel(Encoding e) {
  switch (e) {
    case Encoding::kRgb8:
    case Encoding::kBgr8: return 3;
    case Encoding::kRgba8:
    case Encoding::kBgra8: return 4;
    case Encoding::kMono8: return 1;
    case Encoding::kUyvy:
    case Encoding::kYuyv: return 2;
    case Encoding::kNv12: return 1;
  }
  return 0;
}

size_t MinFrameBytes(const FrameView& f) {
  const size_t rows = f.encoding == Encoding::kNv12 ? f.height + (f.height + 1) / 2 : f.height;
  if (rows == 0) return 0;
  return (rows - 1) * static_cast<size_t>(f.step) + static_cast<size_t>(f.width) * BytesPerPixel(f.encoding);
}

size_t OutputBytes(const PreprocessSpec& s) {
  const size_t n = static_cast<size_t>(s.dst_width) * s.dst_height * s.channels;
  return s.out == OutType::kFloat32 ? n * sizeof(float) : n;
}

Transform Preprocess(const FrameView& f, const Roi& roi, const PreprocessSpec& s, void* out, PaddedRect* padded) {
  if (f.width <= 0 || f.height <= 0)
    throw EngineError("ERR_FRAME_INVALID", "frame width and height must be positive");
  if (static_cast<size_t>(f.step) < static_cast<size_t>(f.width) * BytesPerPixel(f.encoding))
    throw EngineError("ERR_FRAME_INVALID", "frame step " + std::to_string(f.step) + " is smaller than width x " +
                                               std::to_string(BytesPerPixel(f.encoding)) + " bytes per pixel");
  if ((f.encoding == Encoding::kUyvy || f.encoding == Encoding::kYuyv || f.encoding == Encoding::kNv12) &&
      (f.width % 2 != 0 || (f.encoding == Encoding::kNv12 && f.height % 2 != 0)))
    throw EngineError("ERR_FRAME_INVALID", "4:2:2 / 4:2:0 frames need even dimensions");
  const size_t need = MinFrameBytes(f);
  if (f.size < need)
    throw EngineError("ERR_FRAME_INVALID", "frame data has " + std::to_string(f.size) + " bytes, " +
                                               std::to_string(need) + " needed for its width, height and step");
  const ResizePlan plan = PlanResize(f, roi, s);
  ResampleBilinear(f, plan.geometry, s, out, padded);
  return plan.transform;
}

}  // namespace htp
