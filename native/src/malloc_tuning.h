// How the addon tunes glibc's allocator for a long-running process that loads models now and then
// and takes camera frames all the time. No-ops elsewhere (musl, macOS) and for each setting whose
// MALLOC_* environment variable the user set.
#pragma once

namespace htp {

// At addon load, before any session exists.
void TuneMalloc();

}  // namespace htp
