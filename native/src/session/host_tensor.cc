#include "session/host_tensor.h"

#include <cstring>
#include <utility>

#include "session/engine_error.h"

namespace htp {

size_t HostElementBytes(int type) {
  switch (type) {
    case kElementFloat:
    case kElementFloat16:
    case kElementInt32: return 4;
    case kElementInt64: return 8;
    case kElementUint8:
    case kElementInt8:
    case kElementBool: return 1;
    default: return 0;
  }
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);  // infinity or NaN, payload kept
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;  // signed zero
  } else {
    // Subnormal half: normalize into a float's exponent range.
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

size_t InPlaceBytes(const TensorDesc& output) {
  if (output.type == kElementFloat16) return 0;
  size_t bytes = HostElementBytes(output.type);
  if (bytes == 0) return 0;
  for (int64_t d : output.dims) {
    if (d <= 0) return 0;
    bytes *= static_cast<size_t>(d);
  }
  return bytes;
}

std::vector<std::string> InPlaceNames(const ModelDesc& model, const std::vector<size_t>& bytes) {
  std::vector<std::string> names;
  for (size_t i = 0; i < bytes.size() && i < model.outputs.size(); ++i)
    if (bytes[i] > 0) names.push_back(model.outputs[i].name);
  return names;
}

std::vector<RecycledBuffer> TakeOutputBlocks(const std::vector<size_t>& bytes) {
  std::vector<RecycledBuffer> blocks(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] > 0) blocks[i] = RecycledBuffer(OutputBlocks(), bytes[i]);
  return blocks;
}

HostTensor FinishOutput(std::string name, std::vector<int64_t> dims, int type, const void* data, size_t elements,
                        RecycledBuffer* block) {
  if (block == nullptr || block->data() == nullptr || data != block->data())
    return CopyToHost(std::move(name), std::move(dims), type, data, elements);
  HostTensor t;
  t.name = std::move(name);
  t.dims = std::move(dims);
  t.type = type;
  t.bytes = elements * HostElementBytes(type);
  t.data = std::move(*block);
  t.in_place = true;
  return t;
}

HostTensor CopyToHost(std::string name, std::vector<int64_t> dims, int type, const void* src, size_t elements) {
  HostTensor t;
  t.name = std::move(name);
  t.dims = std::move(dims);
  t.type = type;
  const size_t unit = HostElementBytes(type);
  if (unit == 0)
    throw EngineError("ERR_RUNTIME", "output " + t.name + " has ONNX element type " + std::to_string(type) +
                                         ", which the engine does not return");
  t.bytes = elements * unit;
  if (t.bytes == 0) return t;
  t.data = RecycledBuffer(OutputBlocks(), t.bytes);
  if (type == kElementFloat16) {
    // Widened here, on the worker: the completion callback runs on the JS thread.
    const auto* h = static_cast<const uint16_t*>(src);
    float* dst = static_cast<float*>(t.data.data());
    for (size_t i = 0; i < elements; ++i) dst[i] = HalfToFloat(h[i]);
  } else {
    std::memcpy(t.data.data(), src, t.bytes);
  }
  return t;
}

HostTensor SliceBatchItem(const HostTensor& batched, size_t item, int items) {
  if (batched.dims.empty() || batched.dims[0] != items || item >= static_cast<size_t>(items))
    throw EngineError("ERR_RUNTIME", "output " + batched.name + " has no leading batch axis of " +
                                         std::to_string(items) + " to split");
  HostTensor t;
  t.name = batched.name;
  t.dims = batched.dims;
  t.dims[0] = 1;
  t.type = batched.type;
  t.bytes = batched.bytes / static_cast<size_t>(items);
  if (t.bytes == 0) return t;
  t.data = RecycledBuffer(OutputBlocks(), t.bytes);
  std::memcpy(t.data.data(), static_cast<const uint8_t*>(batched.data.data()) + item * t.bytes, t.bytes);
  return t;
}

}  // namespace htp
