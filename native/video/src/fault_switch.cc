#include "fault_switch.h"

#include <cstdlib>

namespace htpv {

bool TestFaultsArmed() {
  const char* v = std::getenv("HTP_PERCEPTION_TEST_VIDEO_FAULTS");
  return v != nullptr && *v != '\0';
}

}  // namespace htpv
