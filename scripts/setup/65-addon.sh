#!/usr/bin/env bash
# Builds the native engine addon (native/, C++17, node-addon-api) with cmake-js into
# build/engine/Release/htp_engine.node, linked against onnxruntime-node's libonnxruntime.so.1
# (found at run time through a RUNPATH relative to the addon) and the headers of 60-onnxruntime;
# with the ExecuTorch runtime of 62-executorch, the ExecuTorch plug-in htp_executorch.so beside it.
# Set HTP_ENGINE_ASAN=1 to build an AddressSanitizer variant into build/engine-asan instead.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
need_cmd cmake "apt-get install cmake (>= 3.18)"
need_cmd g++ "apt-get install g++"
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) die "addon: unsupported machine $(uname -m)" ;; esac
inc="$root/.cache/onnxruntime/include"
libdir="$root/node_modules/onnxruntime-node/bin/napi-v6/linux/$arch"
[ -f "$inc/onnxruntime_c_api.h" ] || die "addon: ONNX Runtime headers missing: run 'bash scripts/bootstrap.sh 60-onnxruntime'"
[ -f "$libdir/libonnxruntime.so.1" ] || die "addon: $libdir/libonnxruntime.so.1 missing: run 'bash scripts/bootstrap.sh 40-npm'"
nodedir="$(node_prefix)"
napi_inc="$(node -p "require('path').dirname(require.resolve('node-addon-api/package.json'))")"
asan="${HTP_ENGINE_ASAN:-0}"
out="build/engine"; [ "$asan" = 1 ] && out="build/engine-asan"
stamp="$root/$out/.stamp"
# The ExecuTorch runtime (62-executorch), when this machine has one: the plug-in is built with it.
et_dir="$root/.cache/executorch/$(uname -m)"
et_args=()
et_key=none
if [ -f "$et_dir/lib/libexecutorch.so" ]; then
  et_args=(--CDEXECUTORCH_DIR="$et_dir" --CDEXECUTORCH_RUNPATH="\$ORIGIN/../../../.cache/executorch/$(uname -m)/lib")
  et_key="$(cat "$et_dir/.stamp")"
fi
key="$( (cat native/CMakeLists.txt; native_sources; echo "$asan|$et_key"; sha256sum "$libdir/libonnxruntime.so.1" "$inc/onnxruntime_c_api.h") | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key" && [ -f "$root/$out/Release/htp_engine.node" ]; then
  log "addon: $out up to date"
  exit 0
fi
# RUNPATH from build/engine*/Release/ back to node_modules, so the checkout can move.
runpath="\$ORIGIN/../../../node_modules/onnxruntime-node/bin/napi-v6/linux/$arch"
rm -f "$out/CMakeCache.txt"  # options (paths) may have changed since the last configure
# The stamp vouches for the binary on disk: a build that fails (or does not load) replaces that
# binary, and sources put back afterwards must then rebuild rather than match the old stamp.
rm -f "$stamp"
# npm_config_nodedir makes cmake-js use the running Node's headers (it must never download any).
npm_config_nodedir="$nodedir" node_modules/.bin/cmake-js build --log-level warn -d native -O "$out" \
  --CDORT_INCLUDE_DIR="$inc" --CDORT_LIBRARY="$libdir/libonnxruntime.so.1" \
  --CDORT_RUNPATH="$runpath" --CDNODE_ADDON_API_DIR="$napi_inc" --CDHTP_ENGINE_ASAN="$asan" "${et_args[@]}" \
  || die "addon: cmake-js build failed (see the compiler output above)"
preload=""; [ "$asan" = 1 ] && preload="$(g++ -print-file-name=libasan.so)"
LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 node -e "require('$root/$out/Release/htp_engine.node')" \
  || die "addon: built but does not load"
if [ "$et_key" != none ]; then
  LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 node -e "
    const r = require('$root/$out/Release/htp_engine.node').executorchRuntime();
    if (!r.version) { console.error(r.error); process.exit(1); }" \
    || die "addon: the ExecuTorch plug-in was built but does not load"
fi
stamp_write "$stamp" "$key"
log "addon: built $out/Release/htp_engine.node"
