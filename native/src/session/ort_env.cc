#include "session/ort_env.h"

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <mutex>

#include "session/engine_error.h"

namespace htp {
namespace {
std::mutex g_mutex;

// Per thread: sessions are created on libuv workers, and a log line belongs to the creation on
// the same thread. Bounded: only the last few lines are kept.
thread_local std::vector<std::string> t_errors;
thread_local size_t t_logged = 0;
constexpr size_t kKeptErrors = 8;

void LogToStderrAndKeep(void*, OrtLoggingLevel severity, const char* category, const char* logid,
                        const char* code_location, const char* message) {
  std::fprintf(stderr, "[onnxruntime %s %s %s] %s\n", severity >= ORT_LOGGING_LEVEL_FATAL ? "F" : severity >= ORT_LOGGING_LEVEL_ERROR ? "E" : "W",
               logid != nullptr ? logid : "", code_location != nullptr ? code_location : "", message != nullptr ? message : "");
  (void)category;
  if (severity < ORT_LOGGING_LEVEL_ERROR || message == nullptr) return;
  if (t_errors.size() == kKeptErrors) t_errors.erase(t_errors.begin());
  t_errors.emplace_back(message);
  ++t_logged;
}

}  // namespace

Ort::Env& OrtEnvironment() {
  // Leaked on purpose: ORT's env must outlive every session, including ones a GC finalizer
  // releases during process exit.
  static Ort::Env* env = new Ort::Env(ORT_LOGGING_LEVEL_ERROR, "htp_engine", LogToStderrAndKeep, nullptr);
  return *env;
}

size_t OrtErrorMark() { return t_logged; }

std::string OrtErrorsSince(size_t mark) {
  const size_t fresh = t_logged - mark;
  std::string out;
  const size_t n = fresh < t_errors.size() ? fresh : t_errors.size();
  for (size_t i = t_errors.size() - n; i < t_errors.size(); ++i) out += (out.empty() ? "" : "; ") + t_errors[i];
  return out;
}

std::vector<Ort::ConstEpDevice> PluginEpDevices(const std::string& registration_name, const std::string& library_path,
                                                const std::string& ep_name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  static std::map<std::string, std::string> registered;  // registration name -> path
  Ort::Env& env = OrtEnvironment();
  auto it = registered.find(registration_name);
  if (it == registered.end()) {
    struct stat st {};
    if (stat(library_path.c_str(), &st) != 0)
      throw EngineError("ERR_PROVIDER_UNAVAILABLE", "provider library " + library_path +
                                                        " does not exist: run 'bash scripts/bootstrap.sh 60-onnxruntime' "
                                                        "or set htp.provider_library");
    try {
      env.RegisterExecutionProviderLibrary(registration_name.c_str(), library_path);
    } catch (const Ort::Exception& e) {
      throw EngineError("ERR_PROVIDER_UNAVAILABLE",
                        "could not load provider library " + library_path + ": " + e.what());
    }
    registered[registration_name] = library_path;
  } else if (it->second != library_path) {
    throw EngineError("ERR_PROVIDER_UNAVAILABLE", "provider " + registration_name + " is already registered from " +
                                                      it->second + "; one process can use one library path");
  }
  std::vector<Ort::ConstEpDevice> out;
  for (const auto& d : env.GetEpDevices()) {
    if (ep_name == d.EpName()) out.push_back(d);
  }
  if (out.empty())
    throw EngineError("ERR_PROVIDER_UNAVAILABLE", "provider library " + library_path + " loaded but offers no " +
                                                      ep_name + " device on this machine");
  return out;
}

}  // namespace htp
