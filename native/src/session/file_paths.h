// File-system questions the session code and the ExecuTorch plug-in both ask. Header-only: the
// plug-in (native/src/executorch/) links none of the addon's objects.
#pragma once
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace htp {

inline bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The folder part of `file` ("" when it names none).
inline std::string DirectoryOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "" : file.substr(0, slash);
}

// The folder of the loaded library holding `address` (symlinks resolved), or "" when the dynamic
// loader cannot say: where a library finds the files installed beside it.
inline std::string LibraryDirectoryOf(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  char* real = realpath(info.dli_fname, nullptr);
  const std::string file = real != nullptr ? real : info.dli_fname;
  std::free(real);
  return DirectoryOf(file);
}

}  // namespace htp
