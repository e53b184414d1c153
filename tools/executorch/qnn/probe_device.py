"""ctypes probe of the wheel's libQnnHtp.so (QNN 2.51): API versions and whether QnnDevice_create
accepts a QNN_HTP_DEVICE_CONFIG_OPTION_SOC custom config with socModel at offset 4 (old 8-byte
QnnHtpDevice_CustomConfig_t) or offset 8 (new layout whose union holds a void*)."""
import ctypes as C
import sys

# The wheel's libQnnHtp.so (onnxruntime_qnn/ in the torch venv), or the path given.
LIB = sys.argv[1] if len(sys.argv) > 1 else "libQnnHtp.so"
lib = C.CDLL(LIB, mode=C.RTLD_GLOBAL)


class Ver(C.Structure):
    _fields_ = [("major", C.c_uint32), ("minor", C.c_uint32), ("patch", C.c_uint32)]


class Iface(C.Structure):
    _fields_ = [("backendId", C.c_uint32), ("providerName", C.c_char_p),
                ("core", Ver), ("backend", Ver), ("fn", C.c_void_p * 48)]


pp = C.POINTER(C.POINTER(Iface))()
n = C.c_uint32()
assert lib.QnnInterface_getProviders(C.byref(pp), C.byref(n)) == 0
it = pp[0].contents
print("providers", n.value, "backendId", it.backendId, "name", it.providerName,
      "coreApi %d.%d.%d" % (it.core.major, it.core.minor, it.core.patch),
      "htpBackendApi %d.%d.%d" % (it.backend.major, it.backend.minor, it.backend.patch))

E = C.c_uint64
backendCreate = C.CFUNCTYPE(E, C.c_void_p, C.c_void_p, C.POINTER(C.c_void_p))(it.fn[1])
backendFree = C.CFUNCTYPE(E, C.c_void_p)(it.fn[8])
deviceCreate = C.CFUNCTYPE(E, C.c_void_p, C.c_void_p, C.POINTER(C.c_void_p))(it.fn[40])
deviceFree = C.CFUNCTYPE(E, C.c_void_p)(it.fn[43])

be = C.c_void_p()
print("backendCreate ->", backendCreate(None, None, C.byref(be)))

soc = int(sys.argv[1]) if len(sys.argv) > 1 else 93  # QCM6490
for off in (4, 8):
    cc = (C.c_uint32 * 4)()  # 16 bytes, zeroed; option=0 (SOC)
    cc[off // 4] = soc
    dc = (C.c_uint64 * 2)()  # QnnDevice_Config_t {option=CUSTOM(0); void* customConfig}
    dc[0] = 0
    dc[1] = C.addressof(cc)
    arr = (C.c_void_p * 2)(C.addressof(dc), None)
    dev = C.c_void_p()
    r = deviceCreate(None, arr, C.byref(dev))
    print("deviceCreate SOC=%d socModel@offset%d -> %d (0x%x)" % (soc, off, r, r))
    if r == 0:
        deviceFree(dev)
backendFree(be)
