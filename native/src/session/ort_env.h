// Process-wide ONNX Runtime environment and plug-in provider registry (thread-safe, sync).
#pragma once
#include <onnxruntime_cxx_api.h>

#include <string>
#include <vector>

namespace htp {

// The one OrtEnv of the process, created on first use (ORT allows only one).
Ort::Env& OrtEnvironment();

// Registers a plug-in provider library once per (name, path) and returns the devices of
// provider `ep_name` it offers. Throws EngineError ERR_PROVIDER_UNAVAILABLE naming the library.
std::vector<Ort::ConstEpDevice> PluginEpDevices(const std::string& registration_name, const std::string& library_path,
                                                const std::string& ep_name);

}  // namespace htp
