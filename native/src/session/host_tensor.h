// One output of a run, ready to become an ArrayBuffer, whichever runtime produced it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memory/recycled_blocks.h"
#include "session/model_desc.h"

namespace htp {

struct HostTensor {
  std::string name;
  std::vector<int64_t> dims;
  int type = 0;  // the model's ONNX element code: float16 stays float16 though the bytes are float32
  // The output's bytes, in a block of OutputBlocks(): written there by the runtime itself where it
  // can (InPlaceBytes), else copied out of the runtime's memory on the worker (float16 widened to
  // float32). JS keeps an output until V8 collects it, which may be minutes, and in ONNX Runtime's
  // arena each one held a chunk that long, so the arena grew to hold them and RSS with it
  // (bench:soak --container: +39 MB in an hour). The blocks of collected outputs are reused, so
  // an output costs neither arena growth nor a fresh mapping's page faults.
  RecycledBuffer data;
  size_t bytes = 0;
  bool in_place = false;  // the runtime wrote it there itself (FinishOutput), nothing was copied
  void* Data() { return data.data(); }
};

// Bytes per element of the tensors a run hands to JS (float16 arrives widened); 0: not returned.
size_t HostElementBytes(int type);

// The bytes of an output a runtime can write straight into a block of OutputBlocks() (its dims
// all known before the run, its type one the engine returns as it is); 0 when it cannot: a
// symbolic or data-dependent dimension, float16 (widened, so copied), a type not returned.
size_t InPlaceBytes(const TensorDesc& output);

// The names of `model`'s outputs whose `bytes` (InPlaceBytes per output) are not 0.
std::vector<std::string> InPlaceNames(const ModelDesc& model, const std::vector<size_t>& bytes);

// Before a run: per output, a block of OutputBlocks() of `bytes[i]` for the runtime to write into
// (an empty buffer where it is 0). Throws std::bad_alloc when the memory is not there.
std::vector<RecycledBuffer> TakeOutputBlocks(const std::vector<size_t>& bytes);

// After a run: the output as JS receives it. When the runtime wrote it into `block` (`data` is
// the block's), the block itself, counted in place; else its values copied (CopyToHost).
HostTensor FinishOutput(std::string name, std::vector<int64_t> dims, int type, const void* data, size_t elements,
                        RecycledBuffer* block);

// Copies `elements` values of ONNX element code `type` from `src` into a block of OutputBlocks(),
// widening float16 to float32. Throws EngineError ERR_RUNTIME for a type the engine does not
// return, std::bad_alloc when the memory is not there.
HostTensor CopyToHost(std::string name, std::vector<int64_t> dims, int type, const void* src, size_t elements);

// Item `item` of a run's output whose leading axis holds `items` images: its own tensor (leading
// dim 1), copied into a block of OutputBlocks(). Throws EngineError ERR_RUNTIME when the output's
// leading dim is not `items`.
HostTensor SliceBatchItem(const HostTensor& batched, size_t item, int items);

// IEEE 754 half to single precision, exactly (every half is a float).
float HalfToFloat(uint16_t h);

}  // namespace htp
