#!/usr/bin/env bash
# ONNX Runtime for the native engine addon, from registry packages only:
#  - the shared library: libonnxruntime.so.1 shipped by npm onnxruntime-node (installed by 40-npm;
#    its install script stays blocked, so its optional CUDA download never runs);
#  - the C/C++ API headers: npm com.github.asus4.onnxruntime carries them inside its iOS
#    framework; its API version must not be newer than the library's (checked below);
#  - the QNN execution-provider plug-in: PyPI onnxruntime-qnn wheel (linux x86-64 / aarch64),
#    unpacked as files (no Python needed at run time).
# Everything lands in .cache/onnxruntime/.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
HEADERS_PKG="com.github.asus4.onnxruntime@0.4.9"
out="$root/.cache/onnxruntime"

case "$(uname -m)" in
  x86_64) arch=x64; wheel_plat=manylinux_2_35_x86_64 ;;
  aarch64) arch=arm64; wheel_plat=manylinux_2_34_aarch64 ;;
  *) die "onnxruntime: unsupported machine $(uname -m) (need x86_64 or aarch64)" ;;
esac
ortpkg="$root/node_modules/onnxruntime-node"
lib="$ortpkg/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
[ -f "$lib" ] || die "onnxruntime: $lib is missing: run 'bash scripts/bootstrap.sh 40-npm' (npm install)"
lib_version="$(node -p "require('$ortpkg/package.json').version")"
lib_api="$(echo "$lib_version" | cut -d. -f2)"

stamp="$out/.stamp"
key="$HEADERS_PKG|$QNN_PKG|$lib_version|$arch"
if stamp_ok "$stamp" "$key" && [ -f "$out/include/onnxruntime_c_api.h" ]; then
  log "onnxruntime: up to date (library $lib_version)"
  exit 0
fi
need_cmd npm "install Node.js/npm"
need_cmd python3 "install Python 3 (pip downloads the QNN plug-in wheel)"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Headers.
(cd "$tmp" && npm pack "$HEADERS_PKG" --silent >/dev/null 2>&1) \
  || die "onnxruntime: 'npm pack $HEADERS_PKG' failed (npm registry reachable?)"
hdir='package/Plugins/iOS~/onnxruntime.xcframework/ios-arm64_x86_64-simulator/onnxruntime.framework/Headers'
tar -xzf "$tmp"/*.tgz -C "$tmp" --wildcards "$hdir/*" \
  || die "onnxruntime: $HEADERS_PKG no longer has headers at $hdir"
rm -rf "$out/include"
mkdir -p "$out/include"
cp "$tmp/$hdir"/*.h "$out/include/"
hdr_api="$(sed -n 's/^#define ORT_API_VERSION \([0-9]*\).*/\1/p' "$out/include/onnxruntime_c_api.h")"
[ -n "$hdr_api" ] || die "onnxruntime: ORT_API_VERSION not found in the headers"
[ "$hdr_api" -le "$lib_api" ] \
  || die "onnxruntime: headers are API $hdr_api but onnxruntime-node $lib_version is API $lib_api: use onnxruntime-node >= 1.$hdr_api.0 in package.json"

# QNN plug-in (optional at run time: provider 'htp' reports a coded error when it is absent).
rm -rf "$out/qnn"
if python3 -m pip download -q --no-deps --only-binary=:all: --platform "$wheel_plat" \
    --python-version 3.11 -d "$tmp/qnn" "$QNN_PKG" >/dev/null 2>&1; then
  mkdir -p "$out/qnn"
  python3 -m zipfile -e "$tmp"/qnn/*.whl "$out/qnn"
  log "onnxruntime: QNN plug-in unpacked into $out/qnn"
else
  log "onnxruntime: warning: could not download $QNN_PKG for $wheel_plat; provider 'htp' will be unavailable"
fi
stamp_write "$stamp" "$key"
log "onnxruntime: headers API $hdr_api, library $lib_version (API $lib_api)"
