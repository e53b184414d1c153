// The resampler's last steps for one quantized input channel, fused into one vector pass (sync,
// pure, no N-API): the vertical blend of two horizontally blended rows, the rounding to a whole
// level, and the level's quantization. Separately they were three passes over the row, the last
// one a four-lane division (half of the preprocessing of 520x520 and 256x192 crops after the
// horizontal pass was vectorized).
#pragma once

namespace htp {

// The arithmetic that turns a whole level v into a quantized byte on the vector path:
//  - kDivide: (v a + b) / scale, clamped, rounded, plus the zero point, as ONNX Runtime's
//    QuantizeLinear divides;
//  - kMultiply: v (a / scale) + b / scale, the same otherwise;
//  - kSaturate: v (a / scale) + (b / scale + zero), rounded, the narrowing's saturation as the
//    clamp (lo, hi and zero unused).
// PrepareBlendQuantize takes the cheapest that gives the channel's 256 bytes.
enum class QuantizerForm { kDivide, kMultiply, kSaturate };

struct LevelQuantizer {
  QuantizerForm form = QuantizerForm::kDivide;
  float a = 1, b = 0, scale = 1;
  float lo = 0, hi = 255;  // the output range shifted by the zero point
  int zero = 0;
  bool arithmetic = false;  // `form` gives the table's 256 bytes
  // The channel's 256 bytes themselves, looked up 64 at a time by byte permutes where the CPU has
  // AVX-512 VBMI (two VPERMT2B and a blend on the index's top bit); null elsewhere. Must outlive
  // the BlendRoundQuantize calls.
  const unsigned char* table = nullptr;
};

// Whether a vector path reproduces `lut` (level p -> lut[p], the resampler's table for this
// channel) on all 256 levels, by arithmetic or by looking it up; if so fills `q`. False without
// AVX2 (x86-64, checked at run time) or NEON (AArch64), or when HTP_ENGINE_SIMD=off: the caller
// keeps its plain loops.
template <typename T>
bool PrepareBlendQuantize(const T* lut, float a, float b, float scale, int zero, LevelQuantizer* q);

// o[i] = lut[round(t[i] + (u[i] - t[i]) * wy)] for the leading values, with the operations of the
// plain loops in their order (rounding half up, as the resampler does for blends of 0..255).
// Returns how many it wrote (a multiple of the vector width); the caller finishes the row.
template <typename T>
int BlendRoundQuantize(const float* t, const float* u, float wy, int n, const LevelQuantizer& q,
                       T* o);

}  // namespace htp
