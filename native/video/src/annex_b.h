// Annex B access units as Foxglove requires them: every message holding an IDR picture carries
// the SPS and PPS before it. Encoders that write parameter sets only once (or only into
// extradata) get the last ones seen put back in front of each IDR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace htpv {

struct NalSummary {
  bool idr = false;
  bool sps = false;
  bool pps = false;
  bool non_idr_slice = false;
  int count = 0;
};

// NAL unit types of an Annex B buffer (3- or 4-byte start codes).
NalSummary SummarizeNals(const uint8_t* data, size_t size);

class ParameterSetKeeper {
 public:
  // Remembers the SPS and PPS of `data` (Annex B; an avcC record is ignored).
  void Remember(const uint8_t* data, size_t size);
  // Remembers what `packet` holds and, when it has an IDR without parameter sets, puts the last
  // ones seen in front of it. Returns whether the packet holds an IDR.
  bool Complete(std::vector<uint8_t>& packet);

 private:
  std::vector<uint8_t> sps_;
  std::vector<uint8_t> pps_;
};

}  // namespace htpv
