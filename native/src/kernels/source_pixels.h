// One source pixel as RGB floats, for every camera encoding (sync, pure, no N-API; throws
// nothing). Templates on the encoding so the resampler's inner loop has no per-pixel switch.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/exact_grid_rows.h"
#include "kernels/preprocess.h"

namespace htp {

struct Rgb {
  float r, g, b;
};

// YUV is BT.601 limited range (what V4L2/UVC cameras send and OpenCV assumes).
inline Rgb YuvToRgb(int y, int u, int v) {
  const float c = 1.164383f * static_cast<float>(y - 16);
  const float d = static_cast<float>(u - 128);
  const float e = static_cast<float>(v - 128);
  auto clamp = [](float x) { return x < 0.f ? 0.f : (x > 255.f ? 255.f : x); };
  return {clamp(c + 1.596027f * e), clamp(c - 0.391762f * d - 0.812968f * e), clamp(c + 2.017232f * d)};
}

template <Encoding E>
struct Pixel;
template <>
struct Pixel<Encoding::kRgb8> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 3 * static_cast<size_t>(x);
    return {float(p[0]), float(p[1]), float(p[2])};
  }
};
template <>
struct Pixel<Encoding::kBgr8> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 3 * static_cast<size_t>(x);
    return {float(p[2]), float(p[1]), float(p[0])};
  }
};
template <>
struct Pixel<Encoding::kRgba8> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 4 * static_cast<size_t>(x);
    return {float(p[0]), float(p[1]), float(p[2])};
  }
};
template <>
struct Pixel<Encoding::kBgra8> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 4 * static_cast<size_t>(x);
    return {float(p[2]), float(p[1]), float(p[0])};
  }
};
template <>
struct Pixel<Encoding::kMono8> {
  static Rgb At(const FrameView& f, int x, int y) {
    const float v = f.data[static_cast<size_t>(y) * f.step + static_cast<size_t>(x)];
    return {v, v, v};
  }
};
// ROS "yuv422" is UYVY: U Y0 V Y1 per pixel pair.
template <>
struct Pixel<Encoding::kUyvy> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 4 * static_cast<size_t>(x / 2);
    return YuvToRgb(p[1 + 2 * (x & 1)], p[0], p[2]);
  }
};
// YUYV (yuv422_yuy2): Y0 U Y1 V per pixel pair.
template <>
struct Pixel<Encoding::kYuyv> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t* p = f.data + static_cast<size_t>(y) * f.step + 4 * static_cast<size_t>(x / 2);
    return YuvToRgb(p[2 * (x & 1)], p[1], p[3]);
  }
};
// NV12: full-resolution Y plane, then interleaved U V at half resolution; both planes use `step`.
template <>
struct Pixel<Encoding::kNv12> {
  static Rgb At(const FrameView& f, int x, int y) {
    const uint8_t yy = f.data[static_cast<size_t>(y) * f.step + static_cast<size_t>(x)];
    const uint8_t* uv = f.data + static_cast<size_t>(f.height) * f.step +
                        static_cast<size_t>(y / 2) * f.step + 2 * static_cast<size_t>(x / 2);
    return YuvToRgb(yy, uv[0], uv[1]);
  }
};

// Packed 8-bit color layouts the exact-grid rows read directly; 0 bytes per pixel: none.
template <Encoding E>
constexpr PackedLayout PackedLayoutOf() {
  switch (E) {
    case Encoding::kRgb8: return {3, {0, 1, 2}};
    case Encoding::kBgr8: return {3, {2, 1, 0}};
    case Encoding::kRgba8: return {4, {0, 1, 2}};
    case Encoding::kBgra8: return {4, {2, 1, 0}};
    default: return {0, {0, 0, 0}};
  }
}

}  // namespace htp
