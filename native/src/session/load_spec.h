// What TypeScript decided for a session (layout, size, quantization, dims to pin); nothing here
// has a default. The runtime follows from the model file itself (pte_runner.h: IsExecuTorchProgram).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/preprocess.h"
#include "session/model_desc.h"

namespace htp {

// The most images one run takes (LoadSpec::batch): a robot's cameras, with room to spare.
constexpr int kMaxBatch = 16;

struct LoadSpec {
  std::string model_path;
  std::string provider;  // "cpu" | "htp"
  int threads = 0;
  KeyValues session_config;  // ONNX Runtime session config entries
  std::vector<std::pair<std::string, int64_t>> free_dimensions;
  std::string input_name;
  int input_type = 0;
  // Images per run: the input's (and every output's) leading axis. Above 1, RunBatch fills one
  // slot per frame; Run uses slot 0.
  int batch = 1;
  PreprocessSpec preprocess{};
  // provider "htp" only
  std::string provider_library;
  KeyValues provider_options;
  std::string context_cache_path;  // "" for none
  bool context_embed = true;
  // The output whose channel peaks Run finds on the worker ("" for none), and its layout.
  std::string peaks_output;
  bool peaks_channels_last = false;
};

}  // namespace htp
