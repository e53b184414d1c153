// Errors that cross the JS boundary carry a stable code (see docs/engine.md for the list).
#pragma once
#include <stdexcept>
#include <string>

namespace htp {

class EngineError : public std::runtime_error {
 public:
  EngineError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

}  // namespace htp
