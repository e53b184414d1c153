// Whole pixel levels (0..255 as floats, rounded) to a quantized network input, with vector
// instructions where the target has them: the arithmetic of Store<T>::Put (multiply, add, divide
// by the scale, clamp, round half to even, add the zero point) on four values at once, in the same
// order and rounding. Used only where it reproduces the 256-entry table exactly (checked per call:
// QuantizeLevelsMatch), so the bytes are those of the table lookup it replaces, on every CPU.
#pragma once
#include <cstdint>

namespace htp {

// o[i] = Store<T>::Put(v[i] * a + b, scale, zero) for i < n (contiguous output); T is uint8_t or
// int8_t. Values must be whole levels 0..255.
template <typename T>
void QuantizeLevels(const float* v, T* o, int n, float a, float b, float scale, int zero);

// Whether QuantizeLevels gives lut[p] for every level p.
template <typename T>
bool QuantizeLevelsMatch(const T* lut, float a, float b, float scale, int zero);

}  // namespace htp
