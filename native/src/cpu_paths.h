// Which vector instruction paths the preprocessing may take on this CPU (sync, no N-API).
//
// Every vector path gives the bytes of the plain C++ loop it replaces; HTP_ENGINE_SIMD=off in the
// environment (read once, when first asked) keeps every choice on the plain loops, so a test can
// compare the two on one machine and a suspected miscompile can be ruled out in the field.
#pragma once

namespace htp {

// False when HTP_ENGINE_SIMD=off.
bool SimdAllowed();

// x86-64 only; false elsewhere and when SIMD is off.
bool HasSsse3();
bool HasAvx2();

}  // namespace htp
