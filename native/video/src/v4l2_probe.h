// What a board offers for hardware H.264 encoding: every /dev/video* node asked for its
// capabilities and formats (VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT), so the node can say what it probed
// when it finds no encoder, and the doctor can show it.
#pragma once

#include <string>
#include <vector>

namespace htpv {

struct V4l2Device {
  std::string path;
  std::string driver;  // empty when the device could not be opened or asked
  std::string card;
  std::string error;   // why it could not be asked ("Permission denied"), else empty
  bool memory_to_memory = false;
  std::vector<std::string> coded_formats;  // what it produces (the CAPTURE queue of an M2M encoder)
  std::vector<std::string> raw_formats;    // what it takes (the OUTPUT queue)
  // An M2M device that turns NV12 (or NV12M) into H.264.
  bool h264_encoder = false;
};

std::vector<V4l2Device> ProbeV4l2Devices(const std::string& dev_dir = "/dev");

}  // namespace htpv
