#include "kernels/resize_plan.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "session/engine_error.h"

namespace htp {
namespace {

// Half-pixel-centre bilinear sampling positions (the convention of OpenCV INTER_LINEAR and
// numpy references), clamped to the crop so a ROI never samples outside itself.
Axis MakeAxis(int dst_len, double scale, int crop_start, int crop_len) {
  Axis a;
  a.i0.resize(dst_len);
  a.i1.resize(dst_len);
  a.w1.resize(dst_len);
  for (int i = 0; i < dst_len; ++i) {
    double s = (i + 0.5) / scale - 0.5;
    s = std::min(std::max(s, 0.0), static_cast<double>(crop_len - 1));
    const int s0 = static_cast<int>(std::floor(s));
    const int s1 = std::min(s0 + 1, crop_len - 1);
    a.i0[i] = crop_start + s0;
    a.i1[i] = crop_start + s1;
    a.w1[i] = static_cast<float>(s - s0);
  }
  return a;
}

// Pad-outside mode along one axis: input pixel i samples source position
// s = (i + 0.5) / scale - 0.5 + start (pixel-index units). It is inside the frame when its centre
// s + 0.5 lies in [0, src_len); those form one run, since s grows with i. Inside the frame,
// neighbours are clamped to the frame's edge pixels, as in the other modes.
Span MakePadSpan(int dst_len, double scale, double start, int src_len) {
  Span sp;
  int last = -1;
  sp.first = dst_len;
  for (int i = 0; i < dst_len; ++i) {
    const double s = (i + 0.5) / scale - 0.5 + start;
    if (s >= -0.5 && s < src_len - 0.5) {
      sp.first = std::min(sp.first, i);
      last = i;
    }
  }
  const int n = last < sp.first ? 0 : last - sp.first + 1;
  if (n == 0) sp.first = 0;
  sp.axis.i0.resize(n);
  sp.axis.i1.resize(n);
  sp.axis.w1.resize(n);
  for (int k = 0; k < n; ++k) {
    double s = (sp.first + k + 0.5) / scale - 0.5 + start;
    s = std::min(std::max(s, 0.0), static_cast<double>(src_len - 1));
    const int s0 = static_cast<int>(std::floor(s));
    sp.axis.i0[k] = s0;
    sp.axis.i1[k] = std::min(s0 + 1, src_len - 1);
    sp.axis.w1[k] = static_cast<float>(s - s0);
  }
  return sp;
}

std::string RoiText(const Roi& r) {
  auto num = [](double v) {
    std::string t = std::to_string(v);
    t.erase(t.find_last_not_of('0') + 1);
    if (!t.empty() && t.back() == '.') t.pop_back();
    return t;
  };
  return "roi " + num(r.x) + "," + num(r.y) + " " + num(r.width) + "x" + num(r.height);
}

// Far beyond any real crop, and small enough that no position computed from it overflows.
constexpr double kMaxRoiExtent = 1 << 20;

}  // namespace

ResizePlan PlanResize(const FrameView& f, const Roi& roi, const PreprocessSpec& s) {
  Roi r = roi;
  if (r.width == 0 && r.height == 0) r = {0, 0, static_cast<double>(f.width), static_cast<double>(f.height), false};
  Transform t{};
  t.src_width = f.width;
  t.src_height = f.height;
  t.dst_width = s.dst_width;
  t.dst_height = s.dst_height;
  Geometry g;
  if (r.pad_outside) {
    const bool sane = std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.width) &&
                      std::isfinite(r.height) && std::fabs(r.x) <= kMaxRoiExtent &&
                      std::fabs(r.y) <= kMaxRoiExtent && r.width > 0 && r.height > 0 &&
                      r.width <= kMaxRoiExtent && r.height <= kMaxRoiExtent;
    if (!sane || r.x >= f.width || r.y >= f.height || r.x + r.width <= 0 || r.y + r.height <= 0)
      throw EngineError("ERR_ROI_INVALID", RoiText(r) + " is empty, too large or does not overlap the " +
                                               std::to_string(f.width) + "x" + std::to_string(f.height) + " frame");
    t.crop_x = r.x;
    t.crop_y = r.y;
    t.crop_width = r.width;
    t.crop_height = r.height;
    t.pad_x = t.pad_y = 0;
    t.scale_x = s.dst_width / r.width;
    t.scale_y = s.dst_height / r.height;
    g.x = MakePadSpan(s.dst_width, t.scale_x, r.x, f.width);
    g.y = MakePadSpan(s.dst_height, t.scale_y, r.y, f.height);
  } else {
    const bool whole = r.x == std::floor(r.x) && r.y == std::floor(r.y) && r.width == std::floor(r.width) &&
                       r.height == std::floor(r.height);
    if (!whole || r.width <= 0 || r.height <= 0 || r.x < 0 || r.y < 0 || r.x + r.width > f.width ||
        r.y + r.height > f.height)
      throw EngineError("ERR_ROI_INVALID", RoiText(r) + " is empty, not whole pixels or outside the " +
                                               std::to_string(f.width) + "x" + std::to_string(f.height) + " frame");
    // Whole numbers within the frame from here on: the int conversions are exact.
    const int rx = static_cast<int>(r.x), ry = static_cast<int>(r.y);
    const int rw = static_cast<int>(r.width), rh = static_cast<int>(r.height);
    t.crop_x = rx;
    t.crop_y = ry;
    t.crop_width = rw;
    t.crop_height = rh;
    if (s.letterbox) {
      const double k = std::min(static_cast<double>(s.dst_width) / rw, static_cast<double>(s.dst_height) / rh);
      const int nw = std::max(1, std::min(s.dst_width, static_cast<int>(std::lround(rw * k))));
      const int nh = std::max(1, std::min(s.dst_height, static_cast<int>(std::lround(rh * k))));
      t.pad_x = (s.dst_width - nw) / 2;
      t.pad_y = (s.dst_height - nh) / 2;
      t.scale_x = static_cast<double>(nw) / rw;
      t.scale_y = static_cast<double>(nh) / rh;
    } else {
      t.pad_x = t.pad_y = 0;
      t.scale_x = static_cast<double>(s.dst_width) / rw;
      t.scale_y = static_cast<double>(s.dst_height) / rh;
    }
    const int sw = static_cast<int>(std::lround(rw * t.scale_x));
    const int sh = static_cast<int>(std::lround(rh * t.scale_y));
    const int x_end = std::min(s.dst_width, t.pad_x + sw), y_end = std::min(s.dst_height, t.pad_y + sh);
    g.x = {t.pad_x, MakeAxis(x_end - t.pad_x, t.scale_x, rx, rw)};
    g.y = {t.pad_y, MakeAxis(y_end - t.pad_y, t.scale_y, ry, rh)};
  }
  return {t, std::move(g)};
}

}  // namespace htp
