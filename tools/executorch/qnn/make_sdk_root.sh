#!/usr/bin/env bash
# Lays out a QNN_SDK_ROOT for ExecuTorch 1.5.1's QNN backend from the QNN 2.51 libraries of the
# onnxruntime-qnn wheel (QNN_LIBS: the folder holding libQnnHtp.so), with the ABI shim
# (abi_shim.c, README.md) in place of libQnnHtp.so:
#   OUT/lib/x86_64-linux-clang/   links to the wheel's QNN libraries, the shim as libQnnHtp.so
#   OUT/lib/onnxruntime_qnn.libs  the libc++ those libraries link (their RUNPATH's ../ folder)
# Point QNN_SDK_ROOT at OUT for the lowering, and LD_LIBRARY_PATH at the first folder for both
# the lowering and the runtime backend. Usage: make_sdk_root.sh QNN_LIBS OUT
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 QNN_LIBS OUT" >&2; exit 2; }
libs="$(cd "$1" && pwd)"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
[ -f "$libs/libQnnHtp.so" ] || { echo "make_sdk_root: no libQnnHtp.so in $libs" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/lib/x86_64-linux-clang"
for f in "$libs"/*.so; do
  [ "$(basename "$f")" = libQnnHtp.so ] || ln -s "$f" "$out/lib/x86_64-linux-clang/"
done
[ -d "$libs/../onnxruntime_qnn.libs" ] && ln -s "$(cd "$libs/../onnxruntime_qnn.libs" && pwd)" "$out/lib/onnxruntime_qnn.libs"
# -z nodelete: unloaded, the shim would let a later dlopen("libQnnHtp.so") find the real library.
gcc -O2 -Wall -Werror -shared -fPIC -fvisibility=hidden -Wl,-soname,libQnnHtp.so -Wl,-z,nodelete \
  -DREAL_QNNHTP="\"$libs/libQnnHtp.so\"" -o "$out/lib/x86_64-linux-clang/libQnnHtp.so" "$here/abi_shim.c" -ldl
