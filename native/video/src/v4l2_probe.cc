#include "v4l2_probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace htpv {
namespace {

std::string FourCc(uint32_t f) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((f >> (8 * i)) & 0xff);
    if (c != ' ') s += c;
  }
  return s;
}

int Ioctl(int fd, unsigned long request, void* arg) {
  int rv;
  do rv = ioctl(fd, request, arg);
  while (rv == -1 && errno == EINTR);
  return rv;
}

std::vector<uint32_t> Formats(int fd, v4l2_buf_type type) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < 64; ++i) {
    v4l2_fmtdesc d{};
    d.index = i;
    d.type = type;
    if (Ioctl(fd, VIDIOC_ENUM_FMT, &d) != 0) break;
    out.push_back(d.pixelformat);
  }
  return out;
}

bool Has(const std::vector<uint32_t>& v, uint32_t f) { return std::find(v.begin(), v.end(), f) != v.end(); }

V4l2Device Probe(const std::string& path) {
  V4l2Device d;
  d.path = path;
  const int fd = open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    d.error = std::strerror(errno);
    return d;
  }
  v4l2_capability cap{};
  if (Ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) {
    d.error = std::string("VIDIOC_QUERYCAP: ") + std::strerror(errno);
    close(fd);
    return d;
  }
  d.driver = reinterpret_cast<const char*>(cap.driver);
  d.card = reinterpret_cast<const char*>(cap.card);
  const uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
  const bool mplane = (caps & V4L2_CAP_VIDEO_M2M_MPLANE) != 0;
  d.memory_to_memory = mplane || (caps & V4L2_CAP_VIDEO_M2M) != 0;
  if (d.memory_to_memory) {
    // An M2M encoder takes raw frames on its OUTPUT queue and gives coded ones on CAPTURE.
    const std::vector<uint32_t> coded =
        Formats(fd, mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE);
    const std::vector<uint32_t> raw = Formats(fd, mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT);
    for (uint32_t f : coded) d.coded_formats.push_back(FourCc(f));
    for (uint32_t f : raw) d.raw_formats.push_back(FourCc(f));
    d.h264_encoder = Has(coded, V4L2_PIX_FMT_H264) && (Has(raw, V4L2_PIX_FMT_NV12) || Has(raw, V4L2_PIX_FMT_NV12M));
  }
  close(fd);
  return d;
}

}  // namespace

std::vector<V4l2Device> ProbeV4l2Devices(const std::string& dev_dir) {
  std::vector<std::string> paths;
  if (DIR* dir = opendir(dev_dir.c_str())) {
    while (const dirent* e = readdir(dir)) {
      if (std::strncmp(e->d_name, "video", 5) == 0) paths.push_back(dev_dir + "/" + e->d_name);
    }
    closedir(dir);
  }
  std::sort(paths.begin(), paths.end());
  std::vector<V4l2Device> devices;
  for (const std::string& p : paths) devices.push_back(Probe(p));
  return devices;
}

}  // namespace htpv
