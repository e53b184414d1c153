#include "preprocess.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "engine_error.h"
#include "exact_grid_rows.h"

namespace htp {
namespace {

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

struct Axis {
  std::vector<int> i0, i1;
  std::vector<float> w1;
};

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

// Which input pixels (along one axis) are sampled, and from where.
struct Span {
  int first = 0;  // first sampled input pixel; the ones before and after `axis` are padding
  Axis axis;
};

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

// The sampled rectangle of the input; everything around it is padding.
struct Geometry {
  Span x, y;
};

template <typename T>
struct Store;
template <>
struct Store<float> {
  static float Put(float v, float, int) { return v; }
};
// Quantizing exactly as ONNX Runtime's QuantizeLinear does on the CPU (MLAS): float32 division by
// the scale, clamp to the range shifted by the zero point, round half to even (lrint in the
// default rounding mode), add the zero point. Feeding a QDQ graph uint8 in place of its input
// QuantizeLinear then gives the tensor that node would have produced, bit for bit; a multiply by
// 1/scale or std::lround (half away from zero) would differ by one step near .5.
template <typename Q>
Q QuantizeLikeOrt(float v, float scale, int zero) {
  constexpr float lo = static_cast<float>(std::numeric_limits<Q>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const float x = std::min(hi - zero, std::max(lo - zero, v / scale));
  return static_cast<Q>(std::lrint(x) + zero);
}
template <>
struct Store<uint8_t> {
  static uint8_t Put(float v, float scale, int zero) { return QuantizeLikeOrt<uint8_t>(v, scale, zero); }
};
template <>
struct Store<int8_t> {
  static int8_t Put(float v, float scale, int zero) { return QuantizeLikeOrt<int8_t>(v, scale, zero); }
};

// The stores below go through uint8/int8 pointers, which may alias anything: without __restrict
// the compiler reloads every other value after each byte written (the quantized path measured
// 3.7 ms against 1.4 ms for floats at 640x480).
template <typename T>
void LookUp(const float* __restrict v, const T* __restrict lut, T* __restrict o, int n, int stride) {
  for (int i = 0; i < n; ++i) {
    const int level = std::min(255, std::max(0, static_cast<int>(v[i])));
    o[static_cast<size_t>(i) * stride] = lut[level];
  }
}

// A table that maps every level to itself (a uint8 input quantized with scale 1/255 and zero point
// 0 from 0..1 values, as YOLO QDQ exports have) is a clamp and a conversion, which vectorizes.
template <typename T>
void StoreLevels(const float* __restrict v, T* __restrict o, int n, int stride) {
  for (int i = 0; i < n; ++i) {
    const int level = std::min(255, std::max(0, static_cast<int>(v[i])));
    o[static_cast<size_t>(i) * stride] = static_cast<T>(level);
  }
}

template <typename T>
bool IsIdentity(const T* lut) {
  for (int p = 0; p < 256; ++p)
    if (static_cast<int>(lut[p]) != p) return false;
  return true;
}

template <typename T>
void FillPixels(T* __restrict o, int n, const T* __restrict value, int channels) {
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < channels; ++c) o[static_cast<size_t>(i) * channels + c] = value[c];
}

template <Encoding E, typename T>
void Resample(const FrameView& f, const Geometry& g, const PreprocessSpec& s, T* out) {
  const int W = s.dst_width, H = s.dst_height, C = s.channels;
  const size_t plane = static_cast<size_t>(W) * H;
  float a[3], b[3];
  for (int c = 0; c < C; ++c) {
    a[c] = 1.f / s.std[c];
    b[c] = -s.mean[c] / s.std[c];
  }
  const float q_scale = s.q_scale;
  // With round_pixels every 3-channel value is an integer 0..255, so its quantized byte can be
  // looked up: the same formula evaluated once per level instead of a division per value
  // (which made the quantized path slower than writing floats).
  constexpr bool kQuantized = !std::is_same<T, float>::value;
  const bool use_lut = kQuantized && s.round_pixels && C == 3;
  T lut[3][256];
  bool identity[3] = {false, false, false};
  if (use_lut) {
    for (int c = 0; c < 3; ++c) {
      for (int p = 0; p < 256; ++p)
        lut[c][p] = Store<T>::Put(static_cast<float>(p) * a[c] + b[c], q_scale, s.q_zero);
      identity[c] = IsIdentity(lut[c]);
    }
  }
  auto index = [&](int x, int y, int c) -> size_t {
    return s.nchw ? c * plane + static_cast<size_t>(y) * W + x
                  : (static_cast<size_t>(y) * W + x) * C + c;
  };
  const Axis& ax = g.x.axis;
  const Axis& ay = g.y.axis;
  const int x0 = g.x.first, y0 = g.y.first;
  const int nx = static_cast<int>(ax.i0.size()), ny = static_cast<int>(ay.i0.size());
  // Padding first: only the border outside the sampled rectangle is written.
  const int x_end = x0 + nx, y_end = y0 + ny;
  T pad[3];
  for (int c = 0; c < C; ++c) pad[c] = Store<T>::Put(s.pad_value * a[c] + b[c], q_scale, s.q_zero);
  auto fill_span = [&](int y, int from, int to) {  // input pixels [from, to) of row y
    if (from >= to) return;
    if (s.nchw) {
      for (int c = 0; c < C; ++c) {
        T* o = out + c * plane + static_cast<size_t>(y) * W;
        std::fill(o + from, o + to, pad[c]);
      }
    } else {
      FillPixels(out + (static_cast<size_t>(y) * W + from) * C, to - from, pad, C);
    }
  };
  for (int y = 0; y < H; ++y) {
    if (y < y0 || y >= y_end || nx == 0) {
      fill_span(y, 0, W);
    } else {
      fill_span(y, 0, x0);
      fill_span(y, x_end, W);
    }
  }
  if (nx == 0 || ny == 0) return;
  // Separable: each source row is blended horizontally once (rows shared by neighbouring input
  // rows are kept), then input rows are blended vertically with contiguous per-channel loops the
  // compiler vectorizes. Same operations in the same order as blending four samples per pixel,
  // so the values are bit-identical (the build keeps -ffp-contract=off).
  const bool same_x = std::all_of(ax.w1.begin(), ax.w1.end(), [](float w) { return w == 0.f; });
  // Input rows [j_begin, j_end); `scratch` holds 3 x 3 x nx floats (two source rows, one blended
  // row). A second thread over half the rows measured no faster on this 2-core class of machine
  // (1280x720 -> 640x640: 3.55 vs 3.68 ms), so there is none.
  const size_t row_floats = static_cast<size_t>(3) * nx;
  // On the source grid (1:1 or 1:2 per axis, packed 8-bit color) the rows come straight from the
  // bytes, with the same values (exact_grid_rows.h).
  constexpr PackedLayout kLayout = PackedLayoutOf<E>();
  const GridStep gx = kLayout.bytes_per_pixel > 0 && s.exact_grid ? ExactGridStep(ax.i0, ax.i1, ax.w1) : GridStep::kNone;
  const GridStep gy = gx != GridStep::kNone ? ExactGridStep(ay.i0, ay.i1, ay.w1) : GridStep::kNone;
  const bool exact_grid = gy != GridStep::kNone;
  auto resample_rows = [&](int j_begin, int j_end, float* scratch) {
    float* row_buf[2] = {scratch, scratch + row_floats};
    float* blended = scratch + 2 * row_floats;
    int row_src[2] = {-1, -1};
    auto horizontal = [&](int sy, float* dst) {
      float* r = dst;
      float* g = dst + nx;
      float* bl = dst + 2 * nx;
      for (int i = 0; i < nx; ++i) {
        const Rgb p0 = Pixel<E>::At(f, ax.i0[i], sy);
        if (same_x) {
          // wx == 0: v0 + (v1 - v0) * 0 is v0 exactly for finite samples.
          r[i] = p0.r;
          g[i] = p0.g;
          bl[i] = p0.b;
          continue;
        }
        const Rgb p1 = Pixel<E>::At(f, ax.i1[i], sy);
        const float wx = ax.w1[i];
        r[i] = p0.r + (p1.r - p0.r) * wx;
        g[i] = p0.g + (p1.g - p0.g) * wx;
        bl[i] = p0.b + (p1.b - p0.b) * wx;
      }
    };
    auto source_row = [&](int sy, int keep) -> const float* {
      for (int k = 0; k < 2; ++k)
        if (row_src[k] == sy) return row_buf[k];
      const int slot = keep == 0 ? 1 : 0;  // never overwrite the row this input row also needs
      horizontal(sy, row_buf[slot]);
      row_src[slot] = sy;
      return row_buf[slot];
    };
    auto slot_of = [&](const float* p) { return p == row_buf[0] ? 0 : 1; };
    for (int j = j_begin; j < j_end; ++j) {
      const int y = y0 + j;
      if (exact_grid) {
        ExactGridRow(f.data, static_cast<size_t>(f.step), kLayout, gx, gy, ax.i0[0], ay.i0[j], nx,
                     s.round_pixels, blended);
      }
      const float wy = ay.w1[j];
      const float* top = exact_grid ? nullptr : source_row(ay.i0[j], -1);
      const float* bot = exact_grid || wy == 0.f ? top : source_row(ay.i1[j], slot_of(top));
      for (int c = 0; c < 3 && !exact_grid; ++c) {
        const float* t = top + static_cast<size_t>(c) * nx;
        const float* u = bot + static_cast<size_t>(c) * nx;
        float* v = blended + static_cast<size_t>(c) * nx;
        if (wy == 0.f) {
          std::copy(t, t + nx, v);
        } else {
          for (int i = 0; i < nx; ++i) v[i] = t[i] + (u[i] - t[i]) * wy;
        }
        if (s.round_pixels) {
          // Blends of 0..255 samples are never negative, so truncation after +0.5 rounds to
          // nearest, and an int conversion is far cheaper than std::floor here.
          for (int i = 0; i < nx; ++i) v[i] = static_cast<float>(static_cast<int>(v[i] + 0.5f));
        }
      }
      const float* r = blended;
      const float* g = r + nx;
      const float* bl = r + 2 * nx;
      if (C == 1) {
        for (int i = 0; i < nx; ++i) {
          const float gray = 0.299f * r[i] + 0.587f * g[i] + 0.114f * bl[i];
          out[index(x0 + i, y, 0)] = Store<T>::Put(gray * a[0] + b[0], q_scale, s.q_zero);
        }
        continue;
      }
      const float* src[3] = {s.bgr ? bl : r, g, s.bgr ? r : bl};
      for (int c = 0; c < 3; ++c) {
        const float* v = src[c];
        if (s.nchw) {
          T* o = out + c * plane + static_cast<size_t>(y) * W + x0;
          if (use_lut && identity[c]) {
            StoreLevels(v, o, nx, 1);
          } else if (use_lut) {
            LookUp(v, lut[c], o, nx, 1);
          } else {
            const float ac = a[c], bc = b[c];
            for (int i = 0; i < nx; ++i) o[i] = Store<T>::Put(v[i] * ac + bc, q_scale, s.q_zero);
          }
        } else {
          T* o = out + (static_cast<size_t>(y) * W + x0) * 3 + c;
          if (use_lut && identity[c]) {
            StoreLevels(v, o, nx, 3);
          } else if (use_lut) {
            LookUp(v, lut[c], o, nx, 3);
          } else {
            for (int i = 0; i < nx; ++i) o[3 * i] = Store<T>::Put(v[i] * a[c] + b[c], q_scale, s.q_zero);
          }
        }
      }
    }
  };
  if (exact_grid && use_lut) {
    // Quantized input on the source grid: integer levels straight into the lookup, no floats.
    std::vector<uint8_t> levels(row_floats);
    for (int j = 0; j < ny; ++j) {
      const int y = y0 + j;
      ExactGridLevels(f.data, static_cast<size_t>(f.step), kLayout, gx, gy, ax.i0[0], ay.i0[j], nx,
                      levels.data());
      for (int c = 0; c < 3; ++c) {
        const uint8_t* v = levels.data() + static_cast<size_t>(s.bgr ? 2 - c : c) * nx;
        const size_t stride = s.nchw ? 1 : 3;
        T* o = s.nchw ? out + c * plane + static_cast<size_t>(y) * W + x0
                      : out + (static_cast<size_t>(y) * W + x0) * 3 + c;
        if (identity[c] && s.nchw) {
          std::memcpy(o, v, static_cast<size_t>(nx));
        } else {
          for (int i = 0; i < nx; ++i) o[i * stride] = lut[c][v[i]];
        }
      }
    }
    return;
  }
  std::vector<float> scratch(3 * row_floats);
  resample_rows(0, ny, scratch.data());
}

template <Encoding E>
void DispatchOut(const FrameView& f, const Geometry& g, const PreprocessSpec& s, void* out) {
  switch (s.out) {
    case OutType::kFloat32: return Resample<E, float>(f, g, s, static_cast<float*>(out));
    case OutType::kUint8: return Resample<E, uint8_t>(f, g, s, static_cast<uint8_t*>(out));
    case OutType::kInt8: return Resample<E, int8_t>(f, g, s, static_cast<int8_t*>(out));
  }
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

Transform Preprocess(const FrameView& f, const Roi& roi, const PreprocessSpec& s, void* out) {
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
  switch (f.encoding) {
    case Encoding::kRgb8: DispatchOut<Encoding::kRgb8>(f, g, s, out); break;
    case Encoding::kBgr8: DispatchOut<Encoding::kBgr8>(f, g, s, out); break;
    case Encoding::kRgba8: DispatchOut<Encoding::kRgba8>(f, g, s, out); break;
    case Encoding::kBgra8: DispatchOut<Encoding::kBgra8>(f, g, s, out); break;
    case Encoding::kMono8: DispatchOut<Encoding::kMono8>(f, g, s, out); break;
    case Encoding::kUyvy: DispatchOut<Encoding::kUyvy>(f, g, s, out); break;
    case Encoding::kYuyv: DispatchOut<Encoding::kYuyv>(f, g, s, out); break;
    case Encoding::kNv12: DispatchOut<Encoding::kNv12>(f, g, s, out); break;
  }
  return t;
}

}  // namespace htp
