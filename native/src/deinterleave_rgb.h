// Splitting packed 3-byte pixels (rgb8, bgr8) into three byte planes (sync, pure, no N-API).
#pragma once
#include <cstdint>

namespace htp {

// plane[k][i] = src[3 i + k] for i < n. On x86-64 with SSSE3 (every x86-64 CPU of the last
// fifteen years; checked at run time) 16 pixels per step with byte shuffles; elsewhere a plain
// loop, which AArch64 compilers turn into LD3 (NEON's own de-interleaving load). Bytes are moved,
// never computed, so every path gives the same planes.
void DeinterleaveRgb(const uint8_t* src, int n, uint8_t* plane0, uint8_t* plane1, uint8_t* plane2);

}  // namespace htp
