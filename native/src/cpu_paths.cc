#include "cpu_paths.h"

#include <cstdlib>
#include <cstring>

namespace htp {

bool SimdAllowed() {
  static const bool allowed = [] {
    const char* v = std::getenv("HTP_ENGINE_SIMD");
    return v == nullptr || std::strcmp(v, "off") != 0;
  }();
  return allowed;
}

bool HasSsse3() {
#if defined(__x86_64__)
  static const bool has = SimdAllowed() && __builtin_cpu_supports("ssse3");
  return has;
#else
  return false;
#endif
}

bool HasAvx2() {
#if defined(__x86_64__)
  static const bool has = SimdAllowed() && __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

}  // namespace htp
