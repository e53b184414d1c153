// Process-wide ONNX Runtime environment and plug-in provider registry (thread-safe, sync).
#pragma once
#include <onnxruntime_cxx_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace htp {

// The one OrtEnv of the process, created on first use (ORT allows only one). Its log goes to
// stderr as ONNX Runtime's own would, and its error lines are also kept (RecentOrtErrors).
Ort::Env& OrtEnvironment();

// The error lines ONNX Runtime logged on this thread since `mark` (a value of OrtErrorMark()):
// why a provider gave up, in its own words, for the error that reports it. A provider that fails
// to initialise its backend only logs, and hands the graph to the CPU.
size_t OrtErrorMark();
std::string OrtErrorsSince(size_t mark);

// Registers a plug-in provider library once per (name, path) and returns the devices of
// provider `ep_name` it offers. Throws EngineError ERR_PROVIDER_UNAVAILABLE naming the library.
std::vector<Ort::ConstEpDevice> PluginEpDevices(const std::string& registration_name, const std::string& library_path,
                                                const std::string& ep_name);

}  // namespace htp
