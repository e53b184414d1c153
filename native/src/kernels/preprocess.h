// Fused preprocessing: raw camera bytes -> network input tensor in one pass (sync, pure, no N-API).
// Throws EngineError (ERR_FRAME_INVALID, ERR_ROI_INVALID) on bad geometry. The frame is checked
// here; where pixels sample from is resize_plan.h, the pass itself bilinear_resample.h.
#pragma once
#include <cstddef>
#include <cstdint>

namespace htp {

enum class Encoding { kRgb8, kBgr8, kRgba8, kBgra8, kMono8, kUyvy, kYuyv, kNv12 };
enum class OutType { kFloat32, kUint8, kInt8 };

struct FrameView {
  const uint8_t* data = nullptr;
  size_t size = 0;
  int width = 0;
  int height = 0;
  int step = 0;  // bytes per row (for nv12: per row of both planes)
  Encoding encoding = Encoding::kRgb8;
};

// A region of the frame, in source pixels (pixel i covers [i, i + 1)). width = height = 0: the
// whole frame.
struct Roi {
  double x = 0, y = 0, width = 0, height = 0;
  // false: integers, inside the frame; resized as the spec says (letterbox or stretch).
  // true: any region overlapping the frame (fractional, may extend past it), stretched onto the
  // whole input (a top-down pose crop that already has the input's aspect ratio); input pixels
  // whose centre maps outside the frame get pad_value, the rest are sampled bilinearly.
  bool pad_outside = false;
};

// Filled from options TypeScript resolved (option_reader.cc); no defaults here on purpose.
struct PreprocessSpec {
  int dst_width;
  int dst_height;
  int channels;  // 3 (color) or 1 (gray)
  bool nchw;
  bool bgr;  // channel order of the network input
  bool letterbox;
  float pad_value;  // in source pixel units (0..255)
  // Round each resampled pixel to an integer before normalizing, as the uint8 image that
  // OpenCV/PIL resizers produce in the reference pipelines (Ultralytics, AI Hub) is.
  bool round_pixels;
  // Read 8-bit packed colour straight from the bytes when the resize lands on the source grid
  // (exact_grid_rows.h): bit-identical to the general path; false forces the general path.
  bool exact_grid;
  // value = (pixel - mean[c]) / std[c], pixel in 0..255, c in network channel order
  float mean[3];
  float std[3];
  OutType out;
  float q_scale;  // quantized output: q = saturate(rint(value / q_scale) + q_zero), as ORT QuantizeLinear
  int q_zero;
};

// Source pixel (u, v) lands on input pixel ((u - crop_x) * scale_x + pad_x, ...). The crop is
// fractional and may extend past the frame only for a pad_outside ROI.
struct Transform {
  int src_width, src_height;
  double crop_x, crop_y, crop_width, crop_height;
  int dst_width, dst_height;
  double scale_x, scale_y;
  int pad_x, pad_y;
};

// The rectangle of input pixels a call sampled; everything around it is padding. A session passes
// the one its previous call on the same buffer left: when the new rectangle is the same, that
// padding is already in place and is not written again (a letterboxed 640x480 camera frame has
// 160 of its 640 rows padded, every frame the same).
struct PaddedRect {
  int x0 = -1, y0 = -1, nx = -1, ny = -1;
  bool operator==(const PaddedRect& o) const { return x0 == o.x0 && y0 == o.y0 && nx == o.nx && ny == o.ny; }
};

size_t MinFrameBytes(const FrameView& frame);
size_t BytesPerPixel(Encoding e);  // 0 for planar nv12
size_t OutputBytes(const PreprocessSpec& spec);
// Checks the frame and roi, then writes OutputBytes(spec) bytes to `out`. With `padded` (the
// rectangle the last call with this spec left in `out`, or a default PaddedRect), padding already
// in place is kept, and *padded becomes this call's rectangle.
Transform Preprocess(const FrameView& frame, const Roi& roi, const PreprocessSpec& spec, void* out,
                     PaddedRect* padded = nullptr);

}  // namespace htp
