// ABI shim: stands in for libQnnHtp.so in front of the QNN 2.51 libQnnHtp.so from the
// onnxruntime-qnn wheel.
//
// Why: ExecuTorch 1.5.1's QNN adaptor/runtime were compiled against QNN 2.37 headers, where
// QnnHtpDevice_CustomConfig_t is {uint32 option; union{uint32 socModel; {u32,u32} arch; ...}}
// (12 bytes, union at offset 4). QNN 2.51 added `void* htpExtension` to that union, so the
// union now sits at offset 8. 2.51 reads socModel at offset 8 and sees 0:
//   "<E> Failed to set scatter gather parameters: unknown custom config socModel 0"
// This shim forwards every entry point unchanged, except deviceCreate / deviceSetConfig, where
// it rewrites HTP device custom configs from the old layout to the new one.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef REAL_QNNHTP
#define REAL_QNNHTP "libQnnHtp_real.so"
#endif

typedef uint64_t Qnn_ErrorHandle_t;
typedef struct { uint32_t major, minor, patch; } Ver;
typedef struct {
  uint32_t backendId;
  const char* providerName;
  Ver core, backend;
  void* fn[64];  // the slots copied: at most NFN, see QnnInterface_getProviders
} Iface;

typedef Qnn_ErrorHandle_t (*GetProvidersFn)(const Iface***, uint32_t*);
typedef Qnn_ErrorHandle_t (*DevCreateFn)(void*, const void**, void**);
typedef Qnn_ErrorHandle_t (*DevSetConfigFn)(void*, const void**);

enum { IDX_DEVICE_CREATE = 40, IDX_DEVICE_SET_CONFIG = 41, NFN = 64 };

// QnnDevice_Config_t: {uint32 option; union{void* customConfig; const void* hardwareInfo;}}
typedef struct { uint32_t option; void* ptr; } DevConfig;
#define QNN_DEVICE_CONFIG_OPTION_CUSTOM 0

typedef struct { uint32_t option; uint32_t u[2]; } OldHtpDevCustom;           // 2.37
typedef struct { uint32_t option; uint32_t pad; uint32_t u[2]; } NewHtpDevCustom;  // 2.51

static void* g_real;
static Iface g_iface;
static const Iface* g_list[1];
static DevCreateFn g_realCreate;
static DevSetConfigFn g_realSetConfig;
static int g_verbose;

// Returns a malloc'd, NULL-terminated copy of cfgs with HTP device custom configs converted.
static const void** convert(const void** cfgs, void** to_free, int* nfree) {
  *nfree = 0;
  if (!cfgs) return NULL;
  int n = 0;
  while (cfgs[n]) n++;
  const void** out = calloc(n + 1, sizeof(void*));
  for (int i = 0; i < n; i++) {
    const DevConfig* c = cfgs[i];
    if (c->option == QNN_DEVICE_CONFIG_OPTION_CUSTOM && c->ptr) {
      const OldHtpDevCustom* o = c->ptr;
      DevConfig* nc = calloc(1, sizeof(DevConfig));
      NewHtpDevCustom* nn = calloc(1, sizeof(NewHtpDevCustom));
      nn->option = o->option;
      nn->u[0] = o->u[0];
      nn->u[1] = o->u[1];
      nc->option = c->option;
      nc->ptr = nn;
      to_free[(*nfree)++] = nc;
      to_free[(*nfree)++] = nn;
      if (g_verbose)
        fprintf(stderr, "[qnnhtp-shim] device custom config option=%u value=%u,%u moved to offset 8\n",
                o->option, o->u[0], o->u[1]);
      out[i] = nc;
    } else {
      out[i] = cfgs[i];
    }
  }
  return out;
}

static Qnn_ErrorHandle_t shim_deviceCreate(void* logger, const void** cfgs, void** dev) {
  if (g_verbose) {
    fprintf(stderr, "[qnnhtp-shim] deviceCreate cfgs=%p\n", (void*)cfgs);
    for (int i = 0; cfgs && cfgs[i]; i++)
      fprintf(stderr, "[qnnhtp-shim]   cfg[%d] option=%u ptr=%p\n", i, ((const DevConfig*)cfgs[i])->option, ((const DevConfig*)cfgs[i])->ptr);
  }
  void* to_free[64];
  int nfree;
  const void** c = convert(cfgs, to_free, &nfree);
  Qnn_ErrorHandle_t r = g_realCreate(logger, c, dev);
  for (int i = 0; i < nfree; i++) free(to_free[i]);
  free(c);
  return r;
}

static Qnn_ErrorHandle_t shim_deviceSetConfig(void* dev, const void** cfgs) {
  void* to_free[64];
  int nfree;
  const void** c = convert(cfgs, to_free, &nfree);
  Qnn_ErrorHandle_t r = g_realSetConfig(dev, c);
  for (int i = 0; i < nfree; i++) free(to_free[i]);
  free(c);
  return r;
}

__attribute__((visibility("default"))) Qnn_ErrorHandle_t QnnInterface_getProviders(
    const Iface*** providerList, uint32_t* numProviders) {
  if (!g_real) {
    g_verbose = getenv("QNNHTP_SHIM_VERBOSE") != NULL;
    const char* path = getenv("QNNHTP_SHIM_REAL");
    g_real = dlopen(path ? path : REAL_QNNHTP, RTLD_NOW | RTLD_GLOBAL);
    if (!g_real) {
      fprintf(stderr, "[qnnhtp-shim] dlopen real lib failed: %s\n", dlerror());
      return 1;
    }
    GetProvidersFn gp = (GetProvidersFn)dlsym(g_real, "QnnInterface_getProviders");
    const Iface** list = NULL;
    uint32_t n = 0;
    Qnn_ErrorHandle_t r = gp(&list, &n);
    if (r || n < 1) return r ? r : 1;
    memset(&g_iface, 0, sizeof(g_iface));
    // The table's length is not in the table, and QNN builds it on the heap: copy the header and
    // the slots that point into the real library's code, at most NFN (2.51's table holds more
    // than 64 functions, the 2.37 caller indexes fewer), stopping at the first that does not.
    memcpy(&g_iface, list[0], offsetof(Iface, fn));
    Dl_info lib;
    if (!dladdr((void*)gp, &lib)) return 1;
    int slots = 0;
    for (; slots < NFN; slots++) {
      Dl_info at;
      void* fn = list[0]->fn[slots];
      if (!fn || !dladdr(fn, &at) || at.dli_fbase != lib.dli_fbase) break;
      g_iface.fn[slots] = fn;
    }
    if (slots <= IDX_DEVICE_SET_CONFIG) {
      fprintf(stderr, "[qnnhtp-shim] the real interface table has %d slots, fewer than the device calls'\n", slots);
      return 1;
    }
    g_realCreate = (DevCreateFn)g_iface.fn[IDX_DEVICE_CREATE];
    g_realSetConfig = (DevSetConfigFn)g_iface.fn[IDX_DEVICE_SET_CONFIG];
    g_iface.fn[IDX_DEVICE_CREATE] = (void*)shim_deviceCreate;
    g_iface.fn[IDX_DEVICE_SET_CONFIG] = (void*)shim_deviceSetConfig;
    g_list[0] = &g_iface;
    if (g_verbose)
      fprintf(stderr, "[qnnhtp-shim] wrapped %s core %u.%u.%u backend %u.%u.%u\n",
              g_iface.providerName, g_iface.core.major, g_iface.core.minor, g_iface.core.patch,
              g_iface.backend.major, g_iface.backend.minor, g_iface.backend.patch);
  }
  *providerList = g_list;
  *numProviders = 1;
  return 0;
}
