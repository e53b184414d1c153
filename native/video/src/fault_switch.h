// The tests' way to make an encoder fail mid-stream (a board's encoder that stops answering):
// honoured only while HTP_PERCEPTION_TEST_FAULTS is set, as the engine's fault switch is.
#pragma once

namespace htpv {

bool TestFaultsArmed();

}  // namespace htpv
