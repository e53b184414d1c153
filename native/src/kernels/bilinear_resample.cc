#include "kernels/bilinear_resample.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/deinterleave_rgb.h"
#include "kernels/exact_grid_rows.h"
#include "kernels/blend_quantize.h"
#include "kernels/gather_blend.h"
#include "kernels/quantize_levels.h"
#include "kernels/quantize_store.h"
#include "kernels/source_pixels.h"

namespace htp {
namespace {

template <typename T>
void FillPixels(T* __restrict o, int n, const T* __restrict value, int channels) {
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < channels; ++c) o[static_cast<size_t>(i) * channels + c] = value[c];
}

// Source pixels [lo, lo + n) of row sy as three planar float rows (r, g, b at dst, dst + n,
// dst + 2 n), each converted once however many input pixels sample it.
template <Encoding E>
void SourceRowPlanes(const FrameView& f, int sy, int lo, int n, float* __restrict dst) {
  constexpr PackedLayout kLayout = PackedLayoutOf<E>();
  const uint8_t* row = f.data + static_cast<size_t>(sy) * f.step;
  if constexpr (kLayout.bytes_per_pixel == 3) {
    float* by_offset[3];
    for (int c = 0; c < 3; ++c) by_offset[kLayout.offset[c]] = dst + static_cast<size_t>(c) * n;
    DeinterleaveRgbFloats(row + 3 * static_cast<size_t>(lo), n, by_offset[0], by_offset[1], by_offset[2]);
  } else if constexpr (kLayout.bytes_per_pixel == 4) {
    const uint8_t* p = row + 4 * static_cast<size_t>(lo);
    for (int c = 0; c < 3; ++c) {
      float* d = dst + static_cast<size_t>(c) * n;
      const uint8_t* q = p + kLayout.offset[c];
      for (int i = 0; i < n; ++i) d[i] = q[4 * static_cast<size_t>(i)];
    }
  } else {
    for (int i = 0; i < n; ++i) {
      const Rgb px = Pixel<E>::At(f, lo + i, sy);
      dst[i] = px.r;
      dst[n + i] = px.g;
      dst[2 * static_cast<size_t>(n) + i] = px.b;
    }
  }
}

template <Encoding E, typename T>
void Resample(const FrameView& f, const Geometry& g, const PreprocessSpec& s, T* out, PaddedRect* padded) {
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
  const PaddedRect rect{x0, y0, nx, ny};
  if (padded == nullptr || !(*padded == rect)) {
    for (int y = 0; y < H; ++y) {
      if (y < y0 || y >= y_end || nx == 0) {
        fill_span(y, 0, W);
      } else {
        fill_span(y, 0, x0);
        fill_span(y, x_end, W);
      }
    }
    if (padded != nullptr) *padded = rect;
  }
  if (nx == 0 || ny == 0) return;
  // Separable: each source row is blended horizontally once (rows shared by neighbouring input
  // rows are kept), then input rows are blended vertically with contiguous per-channel loops the
  // compiler vectorizes. Same operations in the same order as blending four samples per pixel,
  // so the values are bit-identical (the build keeps -ffp-contract=off).
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
  // Off the grid, rounded quantized planar channels are blended, rounded and quantized in one
  // vector pass where it gives the table's bytes (blend_quantize.h); where only four-lane
  // arithmetic reproduces a channel's table (checked on its 256 levels), its rows are quantized
  // four values at a time instead of looked up one by one (a scalar gather: a third of this
  // function's time on 520x520 and 256x192 crops). Both indexed by output channel, as `lut`; on
  // the grid the levels go straight through the table and neither is planned.
  bool fused[3] = {false, false, false};
  bool arithmetic[3] = {false, false, false};
  LevelQuantizer fused_q[3];
  if constexpr (kQuantized) {
    for (int c = 0; c < 3 && use_lut && s.nchw && !exact_grid; ++c) {
      fused[c] = PrepareBlendQuantize(lut[c], a[c], b[c], q_scale, s.q_zero, &fused_q[c]);
      arithmetic[c] = !fused[c] && !identity[c] &&
                      QuantizeLevelsMatch(lut[c], a[c], b[c], q_scale, s.q_zero);
    }
  }
  // The horizontal pass converts each source pixel of the sampled columns once (planar floats),
  // then gathers and blends per channel (gather_blend.h): per-input-pixel byte loads and int to
  // float conversions were most of this function's time on 520x520 and 256x192 crops.
  int span_lo = 0, span = 0;
  GatherPlan gather;
  std::vector<float> span_planes;
  if (!exact_grid) {
    const auto [lo0, hi0] = std::minmax_element(ax.i0.begin(), ax.i0.end());
    const auto [lo1, hi1] = std::minmax_element(ax.i1.begin(), ax.i1.end());
    span_lo = std::min(*lo0, *lo1);
    span = std::max(*hi0, *hi1) - span_lo + 1;
    std::vector<int> rel0(nx), rel1(nx);
    for (int i = 0; i < nx; ++i) {
      rel0[i] = ax.i0[i] - span_lo;
      rel1[i] = ax.i1[i] - span_lo;
    }
    gather = PlanGather(rel0.data(), rel1.data(), ax.w1.data(), nx);
    // The last plane's windows may reach kGatherRowSlack values past it (zeros, never sampled).
    span_planes.resize(3 * static_cast<size_t>(span) + kGatherRowSlack);
  }
  auto resample_rows = [&](int j_begin, int j_end, float* scratch) {
    float* row_buf[2] = {scratch, scratch + row_floats};
    float* blended = scratch + 2 * row_floats;
    int row_src[2] = {-1, -1};
    auto horizontal = [&](int sy, float* dst) {
      SourceRowPlanes<E>(f, sy, span_lo, span, span_planes.data());
      GatherBlend3(span_planes.data(), static_cast<size_t>(span), gather, dst,
                   static_cast<size_t>(nx));
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
        const int oc = s.bgr ? 2 - c : c;
        if constexpr (kQuantized) {
          if (fused[oc]) {
            T* o = out + oc * plane + static_cast<size_t>(y) * W + x0;
            for (int i = BlendRoundQuantize(t, u, wy, nx, fused_q[oc], o); i < nx; ++i) {
              const float vi = t[i] + (u[i] - t[i]) * wy;
              o[i] = lut[oc][std::min(255, std::max(0, static_cast<int>(vi + 0.5f)))];
            }
            continue;
          }
        }
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
        if (fused[c]) continue;  // written above
        if (s.nchw) {
          T* o = out + c * plane + static_cast<size_t>(y) * W + x0;
          if (use_lut && identity[c]) {
            StoreLevels(v, o, nx, 1);
          } else if (arithmetic[c]) {
            if constexpr (kQuantized) QuantizeLevels(v, o, nx, a[c], b[c], q_scale, s.q_zero);
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
    // Where every channel's lookup is the identity (uint8 input with scale 1/255 and zero point 0,
    // as Ultralytics' INT8 exports have) the levels are the tensor's bytes: written in place.
    const bool in_place = std::is_same<T, uint8_t>::value && s.nchw && identity[0] && identity[1] && identity[2];
    std::vector<uint8_t> levels(in_place ? 0 : row_floats);
    for (int j = 0; j < ny; ++j) {
      const int y = y0 + j;
      uint8_t* planes[3];
      for (int c = 0; c < 3; ++c) {
        planes[c] = in_place ? reinterpret_cast<uint8_t*>(out + (s.bgr ? 2 - c : c) * plane + static_cast<size_t>(y) * W + x0)
                             : levels.data() + static_cast<size_t>(c) * nx;
      }
      ExactGridLevels(f.data, static_cast<size_t>(f.step), kLayout, gx, gy, ax.i0[0], ay.i0[j], nx, planes);
      if (in_place) continue;
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
void DispatchOut(const FrameView& f, const Geometry& g, const PreprocessSpec& s, void* out, PaddedRect* padded) {
  switch (s.out) {
    case OutType::kFloat32: return Resample<E, float>(f, g, s, static_cast<float*>(out), padded);
    case OutType::kUint8: return Resample<E, uint8_t>(f, g, s, static_cast<uint8_t*>(out), padded);
    case OutType::kInt8: return Resample<E, int8_t>(f, g, s, static_cast<int8_t*>(out), padded);
  }
}

}  // namespace

void ResampleBilinear(const FrameView& f, const Geometry& g, const PreprocessSpec& s, void* out,
                      PaddedRect* padded) {
  switch (f.encoding) {
    case Encoding::kRgb8: DispatchOut<Encoding::kRgb8>(f, g, s, out, padded); break;
    case Encoding::kBgr8: DispatchOut<Encoding::kBgr8>(f, g, s, out, padded); break;
    case Encoding::kRgba8: DispatchOut<Encoding::kRgba8>(f, g, s, out, padded); break;
    case Encoding::kBgra8: DispatchOut<Encoding::kBgra8>(f, g, s, out, padded); break;
    case Encoding::kMono8: DispatchOut<Encoding::kMono8>(f, g, s, out, padded); break;
    case Encoding::kUyvy: DispatchOut<Encoding::kUyvy>(f, g, s, out, padded); break;
    case Encoding::kYuyv: DispatchOut<Encoding::kYuyv>(f, g, s, out, padded); break;
    case Encoding::kNv12: DispatchOut<Encoding::kNv12>(f, g, s, out, padded); break;
  }
}

}  // namespace htp
