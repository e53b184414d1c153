#!/usr/bin/env bash
# Cross-compiles the native engine addon for linux-arm64 into build/engine-arm64/Release/htp_engine.node:
# the same native/CMakeLists.txt and cmake-js as bootstrap step 65, the same Node headers (those
# of the Node running the build), Debian's aarch64-linux-gnu-g++ (scripts/arm64/toolchain.cmake),
# linked against onnxruntime-node's arm64 libonnxruntime.so.1 (found at run time through a RUNPATH,
# as on x86-64), and with ExecuTorch's aarch64 runtime (35-executorch) the ExecuTorch plug-in
# beside it. Then checks what the lane relies on: an aarch64 ELF, every translation unit
# compiled with -ffp-contract=off (GCC fuses multiply-adds by default on arm64, where FMA is
# baseline, which would break the bit-identity of the preprocessing with x86-64), and that the
# aarch64 Node loads it under emulation.
set -euo pipefail
source "$(dirname "$0")/../../lib.sh"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
need_cmd cmake "apt-get install cmake (>= 3.18)"
need_cmd aarch64-linux-gnu-g++ "bash scripts/arm64/setup/10-apt.sh (g++-aarch64-linux-gnu)"
inc="$root/.cache/onnxruntime/include"
libdir="$root/node_modules/onnxruntime-node/bin/napi-v6/linux/arm64"
[ -f "$inc/onnxruntime_c_api.h" ] || die "arm64 addon: ONNX Runtime headers missing: run 'bash scripts/bootstrap.sh 60-onnxruntime'"
[ -f "$libdir/libonnxruntime.so.1" ] || die "arm64 addon: $libdir/libonnxruntime.so.1 missing: run 'bash scripts/bootstrap.sh 40-npm'"
nodedir="$(node_prefix)"
napi_inc="$(node -p "require('path').dirname(require.resolve('node-addon-api/package.json'))")"
toolchain="$root/scripts/arm64/toolchain.cmake"
out="build/engine-arm64"
addon="$root/$out/Release/htp_engine.node"
stamp="$root/$out/.stamp"
et_dir="$root/.cache/executorch/aarch64"
[ -f "$et_dir/lib/libexecutorch.so" ] || die "arm64 addon: ExecuTorch's aarch64 runtime missing: run 'bash scripts/arm64/setup/35-executorch.sh'"
key="$( (cat native/CMakeLists.txt "$toolchain" "$et_dir/.stamp"; native_sources; aarch64-linux-gnu-g++ --version | head -1
         cat "$nodedir/include/node/node_version.h"; sha256sum "$libdir/libonnxruntime.so.1" "$inc/onnxruntime_c_api.h") \
       | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key" && [ -f "$addon" ]; then
  log "arm64 addon: $out up to date"
  exit 0
fi
runpath="\$ORIGIN/../../../node_modules/onnxruntime-node/bin/napi-v6/linux/arm64"
rm -f "$out/CMakeCache.txt"  # the toolchain must be seen by a fresh configure
npm_config_nodedir="$nodedir" node_modules/.bin/cmake-js build --log-level warn -a arm64 -d native -O "$out" \
  --CDCMAKE_TOOLCHAIN_FILE="$toolchain" --CDCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  --CDORT_INCLUDE_DIR="$inc" --CDORT_LIBRARY="$libdir/libonnxruntime.so.1" \
  --CDORT_RUNPATH="$runpath" --CDNODE_ADDON_API_DIR="$napi_inc" --CDHTP_ENGINE_ASAN=0 \
  --CDEXECUTORCH_DIR="$et_dir" --CDEXECUTORCH_RUNPATH="\$ORIGIN/../../../.cache/executorch/aarch64/lib" \
  || die "arm64 addon: cmake-js cross build failed (see the compiler output above)"
aarch64-linux-gnu-readelf -h "$addon" | grep 'Machine:.*AArch64' >/dev/null \
  || die "arm64 addon: $addon is not an aarch64 ELF (was the toolchain file ignored?)"
node -e '
  const cc = require(process.argv[1]);
  const bad = cc.filter((c) => !/(^|\s)-ffp-contract=off(\s|$)/.test(c.command)).map((c) => c.file);
  if (cc.length === 0 || bad.length > 0) {
    console.error(`compiled without -ffp-contract=off: ${bad.join(", ") || "(no compile commands)"}`);
    process.exit(1);
  }' "$root/$out/compile_commands.json" \
  || die "arm64 addon: the preprocessing would not be bit-identical to x86-64 (native/CMakeLists.txt sets -ffp-contract=off)"
version="$(bash scripts/arm64/emulate.sh node -p "require('$addon').ortVersion")" \
  || die "arm64 addon: built, but the aarch64 Node does not load it under emulation"
et="$(bash scripts/arm64/emulate.sh node -p "JSON.stringify(require('$addon').executorchRuntime())")" \
  || die "arm64 addon: the aarch64 Node could not ask for the ExecuTorch plug-in"
[[ "$et" == *'"version"'* ]] || die "arm64 addon: the ExecuTorch plug-in does not load under emulation: $et"
stamp_write "$stamp" "$key"
log "arm64 addon: built $out/Release/htp_engine.node (aarch64, ONNX Runtime $version, ExecuTorch $et)"
