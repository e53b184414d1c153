#!/usr/bin/env bash
# The aarch64 QNN libraries (the same onnxruntime-qnn release as bootstrap step 60) into
# .cache/arm64/qnn/onnxruntime_qnn: the wheel's package folder as it is, the layout bootstrap step 60
# unpacks on an arm64 machine and doctor reads (provider, libQnnHtp, the v68..v81 stubs and skels,
# libQnnSystem, build_and_package_info.py). Only cp311 manylinux_2_34_aarch64 exists; the libraries
# need no Python.
set -euo pipefail
source "$(dirname "$0")/../../lib.sh"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
out="$root/.cache/arm64/qnn"
stamp="$out/.stamp"
if stamp_ok "$stamp" "$QNN_PKG" && [ -f "$out/onnxruntime_qnn/libonnxruntime_providers_qnn.so" ]; then
  log "arm64 qnn: $QNN_PKG up to date"
  exit 0
fi
need_cmd python3 "install Python 3 (pip downloads the wheel)"
wheels="$root/.cache/arm64/wheels"
python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_34_aarch64 \
  --python-version 3.11 -d "$wheels" "$QNN_PKG" \
  || die "arm64 qnn: 'pip download $QNN_PKG' for aarch64 failed (PyPI reachable?)"
version="${QNN_PKG#*==}"
tmp="$(mktemp -d "$root/.cache/arm64/qnn-unpack.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
python3 -m zipfile -e "$wheels/onnxruntime_qnn-$version-"*aarch64*.whl "$tmp"
[ -f "$tmp/onnxruntime_qnn/libQnnHtp.so" ] || die "arm64 qnn: the $QNN_PKG wheel has no onnxruntime_qnn/libQnnHtp.so"
rm -rf "$out"
mkdir -p "$out"
mv "$tmp/onnxruntime_qnn" "$out/"
stamp_write "$stamp" "$QNN_PKG"
log "arm64 qnn: $QNN_PKG (aarch64) unpacked into .cache/arm64/qnn"
