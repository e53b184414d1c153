// The ExecuTorch plug-in's surface: native/src/executorch/ builds htp_executorch.so, the only
// code linked against ExecuTorch's libraries; the addon opens it with dlopen (pte_runner.cc) when
// a session loads a program, so an addon built or installed without ExecuTorch still runs every
// ONNX model and names what is missing for a .pte. Nothing here uses the addon's own symbols
// (memory pools, N-API): the plug-in is loaded RTLD_LOCAL and sees only its own and ExecuTorch's.
// Errors are EngineError (header-only, so both sides catch the same type by name).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "session/model_desc.h"

namespace htp {

// An output of the last Execute, in the plug-in's memory until the next Execute or destruction.
struct PteTensorView {
  std::vector<int64_t> dims;
  int type = 0;  // ONNX element code (model_desc.h)
  const void* data = nullptr;
  size_t elements = 0;
};

class PteProgram {
 public:
  virtual ~PteProgram() = default;
  // The method's inputs and outputs (named input_<i> / output_<i>: programs keep no names).
  virtual const ModelDesc& model() const = 0;
  // The backends the method delegates to, by the names they registered with (XnnpackBackend,
  // QnnBackend, ...): from the program's own record, as the runtime reads it.
  virtual const std::vector<std::string>& backends() const = 0;
  // Per output, its bytes when the program plans no memory for it (exported with
  // alloc_graph_output=False): it writes that output wherever the caller says; 0 for an output in
  // the program's planned memory, which the views point into.
  virtual const std::vector<size_t>& caller_output_bytes() const = 0;
  // Worker thread, one at a time: runs the method on `input` (the preprocessed tensor, ONNX
  // element code `type`). `output_memory`: per output, nullptr or a block of
  // caller_output_bytes()[i] bytes the program writes that output into (its view then points
  // there); an unplanned output given none goes to the plug-in's own memory. Throws EngineError
  // ERR_RUNTIME.
  virtual std::vector<PteTensorView> Execute(void* input, const std::vector<int64_t>& shape, int type,
                                             const std::vector<void*>& output_memory) = 0;
};

// What a failed open says: a stable code (ERR_MODEL_INVALID, ERR_PROVIDER_UNAVAILABLE, ...) and
// a message naming the file and the cause.
struct PteOpenError {
  std::string code, message;
};

}  // namespace htp

extern "C" {
// htp_pte_open: the program at `path`, its method "forward" loaded (describe_only: only read its
// signature, no method loaded, no delegate initialised), XNNPACK and the portable kernels using
// `threads` threads (0: ExecuTorch's default; the thread pool is one per process). `qnn_dir`: the
// folder of the QNN runtime the engine uses (htp.provider_library's), where a program delegating
// to QnnBackend finds libQnnHtp.so when the loader's path has none ("" for none). nullptr and
// `error` filled on failure; never throws.
typedef htp::PteProgram* (*HtpPteOpenFn)(const char* path, int threads, bool describe_only, const char* qnn_dir,
                                         htp::PteOpenError* error);
// The ExecuTorch version the plug-in was built against ("1.5.1").
typedef const char* (*HtpPteVersionFn)();
}
