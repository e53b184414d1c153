// Splitting packed 3-byte pixels (rgb8, bgr8) into three planes of bytes or floats (sync, pure,
// no N-API).
#pragma once
#include <cstdint>

namespace htp {

// plane[k][i] = src[3 i + k] for i < n. On x86-64 with SSSE3 (every x86-64 CPU of the last
// fifteen years; checked at run time) 16 pixels per step with byte shuffles; elsewhere a plain
// loop, which AArch64 compilers turn into LD3 (NEON's own de-interleaving load). Bytes are moved,
// never computed, so every path gives the same planes.
void DeinterleaveRgb(const uint8_t* src, int n, uint8_t* plane0, uint8_t* plane1, uint8_t* plane2);

// The same planes as floats (plane[k][i] = src[3 i + k], exact): with AVX-512 VBMI or AVX2
// (checked at run time) split 64 or 16 pixels at a time and widened in registers, a plain loop
// elsewhere (AArch64 compilers vectorize it).
void DeinterleaveRgbFloats(const uint8_t* src, int n, float* plane0, float* plane1, float* plane2);

}  // namespace htp
