// The tests' way to make an encoder fail mid-stream (a board's encoder that stops answering):
// honoured only while HTP_PERCEPTION_TEST_VIDEO_FAULTS is set (src/video/testVideoFaults.ts), as
// the engine's fault switch is only while HTP_PERCEPTION_TEST_FAULTS is.
#pragma once

namespace htpv {

bool TestFaultsArmed();

}  // namespace htpv
