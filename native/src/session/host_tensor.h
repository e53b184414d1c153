// One output of a run, ready to become an ArrayBuffer, whichever runtime produced it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memory/recycled_blocks.h"

namespace htp {

struct HostTensor {
  std::string name;
  std::vector<int64_t> dims;
  int type = 0;  // the model's ONNX element code: float16 stays float16 though the bytes are float32
  // The output's bytes copied out of the runtime's memory on the worker (float16 widened to
  // float32): JS keeps an output until V8 collects it, which may be minutes, and in ONNX Runtime's
  // arena each one held a chunk that long, so the arena grew to hold them and RSS with it
  // (bench:soak --container: +39 MB in an hour). From OutputBlocks(): the blocks of collected
  // outputs are reused, so a copy costs a memcpy, not a fresh mapping's page faults.
  RecycledBuffer data;
  size_t bytes = 0;
  void* Data() { return data.data(); }
};

// Bytes per element of the tensors a run hands to JS (float16 arrives widened); 0: not returned.
size_t HostElementBytes(int type);

// Copies `elements` values of ONNX element code `type` from `src` into a block of OutputBlocks(),
// widening float16 to float32. Throws EngineError ERR_RUNTIME for a type the engine does not
// return, std::bad_alloc when the memory is not there.
HostTensor CopyToHost(std::string name, std::vector<int64_t> dims, int type, const void* src, size_t elements);

// IEEE 754 half to single precision, exactly (every half is a float).
float HalfToFloat(uint16_t h);

}  // namespace htp
