// Which vector instruction paths the preprocessing may take on this CPU (sync, no N-API).
//
// Every vector path gives the bytes of the plain C++ loop it replaces. HTP_ENGINE_SIMD in the
// environment (read once, when first asked) narrows the choice: `off` keeps every step on the
// plain loops, `avx2` takes no AVX-512 path, so a test can compare all three on one machine and a
// suspected miscompile can be ruled out in the field.
#pragma once

namespace htp {

// False when HTP_ENGINE_SIMD=off.
bool SimdAllowed();

// x86-64 only; false elsewhere and when SIMD is off.
bool HasSsse3();
bool HasAvx2();

// AVX-512 F, BW and VBMI (byte permutes across a whole register): x86-64 only, false elsewhere,
// when SIMD is off and when HTP_ENGINE_SIMD=avx2.
bool HasAvx512();

}  // namespace htp
