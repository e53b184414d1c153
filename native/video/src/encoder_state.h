// One encoder and what its calls share: the 4:2:0 picture it is fed from, the parameter sets it
// wrote, and whether a call is running (the binding allows one at a time) or the owner closed it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "annex_b.h"
#include "h264_encoder.h"

namespace htpv {

struct EncoderState {
  std::unique_ptr<H264Encoder> encoder;
  std::string description;
  int width = 0;
  int height = 0;
  std::vector<uint8_t> yuv;
  Yuv420View view;
  ParameterSetKeeper parameter_sets;
  bool busy = false;
  bool closed = false;
  int64_t frames = 0;
  int64_t fail_after = -1;  // tests only (fault_switch.h)
};

}  // namespace htpv
