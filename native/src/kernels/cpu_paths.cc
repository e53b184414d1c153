#include "kernels/cpu_paths.h"

#include <cstdlib>
#include <cstring>

namespace htp {
namespace {

const char* SimdSetting() {
  static const char* v = std::getenv("HTP_ENGINE_SIMD");
  return v == nullptr ? "" : v;
}

}  // namespace

bool SimdAllowed() {
  static const bool allowed = std::strcmp(SimdSetting(), "off") != 0;
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

bool HasAvx512() {
#if defined(__x86_64__)
  static const bool has = HasAvx2() && std::strcmp(SimdSetting(), "avx2") != 0 &&
                          __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi");
  return has;
#else
  return false;
#endif
}

}  // namespace htp
