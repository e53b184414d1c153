#!/usr/bin/env bash
# Runs a command as on a linux-arm64 machine without a Hexagon DSP, on this x86-64 one:
#   bash scripts/arm64/emulate.sh node dist/src/cli/main.js doctor
# proot starts every aarch64 program (the command and whatever it executes later) through
# qemu-aarch64-static, with the cross toolchain's sysroot for the arm64 glibc and libstdc++;
# x86-64 programs it executes (the tools venv's Python) run natively. No binfmt_misc handler is
# involved. `node` is the aarch64 Node of .cache/arm64/node (first on PATH), loading the arm64
# addon (HTP_ENGINE_ADDON) and, as the default QNN provider, the aarch64 onnxruntime-qnn libraries
# (HTP_QNN_PROVIDER_LIBRARY; their folder on LD_LIBRARY_PATH, where libQnnHtp.so finds the stubs).
# /proc/cpuinfo is replaced by an ARM one (scripts/arm64/cpuinfo): ONNX Runtime picks its kernels
# from it and segfaults at load on the host's x86 one, which qemu-user passes through.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
node_dir="$root/.cache/arm64/node/bin"
qnn_dir="$root/.cache/arm64/qnn/onnxruntime_qnn"
sysroot=/usr/aarch64-linux-gnu
[ "$#" -gt 0 ] || die "usage: scripts/arm64/emulate.sh COMMAND [ARGS...]"
[ -x "$node_dir/node" ] || die "arm64: no aarch64 Node in .cache/arm64/node: run 'bash scripts/arm64/setup/20-node.sh'"
[ -d "$qnn_dir" ] || die "arm64: no aarch64 QNN libraries in $qnn_dir: run 'bash scripts/arm64/setup/30-qnn.sh'"
need_cmd proot "bash scripts/arm64/setup/10-apt.sh (proot)"
need_cmd qemu-aarch64-static "bash scripts/arm64/setup/10-apt.sh (qemu-user-static)"
[ -f "$sysroot/lib/ld-linux-aarch64.so.1" ] || die "arm64: no arm64 sysroot in $sysroot: bash scripts/arm64/setup/10-apt.sh (g++-aarch64-linux-gnu)"
export PATH="$node_dir:$PATH"
export HTP_ENGINE_ADDON="${HTP_ENGINE_ADDON:-$root/build/engine-arm64/Release/htp_engine.node}"
export HTP_QNN_PROVIDER_LIBRARY="$qnn_dir/libonnxruntime_providers_qnn.so"
export LD_LIBRARY_PATH="$qnn_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# No core files: qemu-user writes a guest's core itself when the limit allows, and an aborted Node's
# (gigabytes of address space) takes minutes and lands in the checkout.
ulimit -c 0
cmd="$1"; shift
[ "$cmd" = node ] && cmd="$node_dir/node"
exec proot -q "qemu-aarch64-static -L $sysroot" -b "$root/scripts/arm64/cpuinfo:/proc/cpuinfo" "$cmd" "$@"
