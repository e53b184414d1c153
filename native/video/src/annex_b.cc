#include "annex_b.h"

namespace htpv {
namespace {

constexpr int kNalSlice = 1;
constexpr int kNalIdr = 5;
constexpr int kNalSps = 7;
constexpr int kNalPps = 8;

// Calls f(type, begin, end) for each NAL unit; begin..end spans the unit without its start code.
template <typename F>
void ForEachNal(const uint8_t* data, size_t size, F&& f) {
  size_t i = 0;
  auto next_start = [&](size_t from, size_t* code_len) -> size_t {
    for (size_t j = from; j + 3 <= size; ++j) {
      if (data[j] == 0 && data[j + 1] == 0 && data[j + 2] == 1) {
        const bool four = j > from && data[j - 1] == 0;
        *code_len = four ? 4 : 3;
        return four ? j - 1 : j;
      }
    }
    *code_len = 0;
    return size;
  };
  size_t code = 0;
  i = next_start(0, &code);
  while (i < size) {
    const size_t begin = i + code;
    size_t next_code = 0;
    const size_t end = next_start(begin, &next_code);
    if (begin < end) f(data[begin] & 0x1f, begin, end);
    i = end;
    code = next_code;
  }
}

void AppendWithStartCode(std::vector<uint8_t>& out, const std::vector<uint8_t>& nal) {
  static const uint8_t kStart[4] = {0, 0, 0, 1};
  out.insert(out.end(), kStart, kStart + 4);
  out.insert(out.end(), nal.begin(), nal.end());
}

}  // namespace

NalSummary SummarizeNals(const uint8_t* data, size_t size) {
  NalSummary s;
  ForEachNal(data, size, [&](int type, size_t, size_t) {
    ++s.count;
    if (type == kNalIdr) s.idr = true;
    if (type == kNalSps) s.sps = true;
    if (type == kNalPps) s.pps = true;
    if (type == kNalSlice) s.non_idr_slice = true;
  });
  return s;
}

void ParameterSetKeeper::Remember(const uint8_t* data, size_t size) {
  ForEachNal(data, size, [&](int type, size_t begin, size_t end) {
    if (type == kNalSps) sps_.assign(data + begin, data + end);
    if (type == kNalPps) pps_.assign(data + begin, data + end);
  });
}

bool ParameterSetKeeper::Complete(std::vector<uint8_t>& packet) {
  Remember(packet.data(), packet.size());
  const NalSummary s = SummarizeNals(packet.data(), packet.size());
  if (!s.idr) return false;
  if ((s.sps && s.pps) || sps_.empty() || pps_.empty()) return true;
  std::vector<uint8_t> completed;
  completed.reserve(packet.size() + sps_.size() + pps_.size() + 8);
  if (!s.sps) AppendWithStartCode(completed, sps_);
  if (!s.pps) AppendWithStartCode(completed, pps_);
  completed.insert(completed.end(), packet.begin(), packet.end());
  packet.swap(completed);
  return true;
}

}  // namespace htpv
