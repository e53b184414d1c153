// What a model takes and gives, as every runtime describes it (ONNX Runtime, ExecuTorch): no
// runtime's headers here, so the ExecuTorch plug-in (native/src/executorch/) shares it.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace htp {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// Element types cross to JS as ONNX codes (ONNXTensorElementDataType == TensorProto.DataType);
// their names live in one TypeScript table (src/core/elementType.ts). ExecuTorch's scalar types
// are mapped onto the same codes.
enum ElementCode : int {
  kElementUnknown = 0,
  kElementFloat = 1,
  kElementUint8 = 2,
  kElementInt8 = 3,
  kElementInt16 = 5,
  kElementInt32 = 6,
  kElementInt64 = 7,
  kElementBool = 9,
  kElementFloat16 = 10,
  kElementFloat64 = 11,
};

struct TensorDesc {
  std::string name;
  std::vector<int64_t> dims;          // -1 where dynamic
  std::vector<std::string> symbolic;  // per dimension, "" when fixed or unnamed
  int type = 0;
};

struct ModelDesc {
  std::vector<TensorDesc> inputs, outputs;
};

}  // namespace htp
