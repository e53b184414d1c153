#include "memory/malloc_usage.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace htp {

MallocUsage ReadMallocUsage() {
  MallocUsage u;
// Under AddressSanitizer malloc is ASan's, and mallinfo2() answers zeros: unknown, not zero.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)) && \
    !defined(__SANITIZE_ADDRESS__)
  // mallinfo2, not mallinfo: the int fields of the old one wrap past 2 GB.
  const struct mallinfo2 m = mallinfo2();
  u.known = true;
  u.in_use_bytes = static_cast<int64_t>(m.uordblks);
  u.free_bytes = static_cast<int64_t>(m.fordblks);
  u.mmapped_bytes = static_cast<int64_t>(m.hblkhd);
#endif
  return u;
}

Napi::Value MallocUsageJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MallocUsage u = ReadMallocUsage();
  if (!u.known) return env.Null();
  Napi::Object o = Napi::Object::New(env);
  o.Set("inUseBytes", static_cast<double>(u.in_use_bytes));
  o.Set("freeBytes", static_cast<double>(u.free_bytes));
  o.Set("mmappedBytes", static_cast<double>(u.mmapped_bytes));
  return o;
}

}  // namespace htp
