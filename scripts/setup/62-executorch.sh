#!/usr/bin/env bash
# ExecuTorch's C++ runtime for the engine's ExecuTorch plug-in (native/src/executorch/), from the
# registry: the PyPI `executorch` wheel ships, beside its Python, the runtime as shared libraries
# (libexecutorch.so, the optimized and quantized kernels, the XNNPACK and QNN delegates, the thread
# pool), its headers and a CMake package. Only those are unpacked, into .cache/executorch/<arch>/
# (no Python, no torch: the runtime needs neither). Pinned and checksummed; 65-addon builds the
# plug-in against it. Optional at run time: without it the addon runs every ONNX model and names
# what is missing for a .pte.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
version=1.5.1
# The machine's architecture, or the one named (the arm64 lane: scripts/arm64/setup/35-executorch.sh).
arch="${1:-$(uname -m)}"
case "$arch" in
  x86_64)
    wheel="executorch-$version-cp311-cp311-manylinux_2_28_x86_64.whl"
    python_version=3.11
    sha=274c28c2fe2b76acb03f9fa381537425c40e0098dcf886baf6d97a1a55ffe300
    ;;
  aarch64)
    # The aarch64 wheel is cp312 only, and has no QNN backend library (docs/robot.md).
    wheel="executorch-$version-cp312-cp312-manylinux_2_28_aarch64.whl"
    python_version=3.12
    sha=2c177f7922354a8a0d6111628c954519b87549598640e5e0042bef137b4cb83c
    ;;
  *) log "executorch: no runtime wheel pinned for $arch: ExecuTorch programs will not load here"; exit 0 ;;
esac
out="$root/.cache/executorch/$arch"
stamp="$out/.stamp"
key="$version|$sha"
if stamp_ok "$stamp" "$key" && [ -f "$out/lib/libexecutorch.so" ]; then
  log "executorch: runtime $version up to date in $out"
  exit 0
fi
need_cmd python3 "install Python 3 (pip downloads the executorch wheel)"
src="$root/.cache/executorch-src"
mkdir -p "$src"
if ! { [ -f "$src/$wheel" ] && echo "$sha  $src/$wheel" | sha256sum -c --quiet - >/dev/null 2>&1; }; then
  rm -f "$src/$wheel"
  python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_"$arch" \
    --python-version "$python_version" -d "$src" "executorch==$version" \
    || die "executorch: 'pip download executorch==$version' failed (PyPI reachable?)"
  echo "$sha  $src/$wheel" | sha256sum -c --quiet - \
    || die "executorch: $src/$wheel does not have the pinned sha256 $sha"
fi
rm -rf "$out" "$src/unpacked"
mkdir -p "$out"
python3 - "$src/$wheel" "$src/unpacked" <<'PY'
import sys, zipfile
keep = ("executorch/lib/", "executorch/include/", "executorch/share/cmake/")
with zipfile.ZipFile(sys.argv[1]) as z:
    for n in z.namelist():
        if n.startswith(keep) and not n.endswith("/"):
            z.extract(n, sys.argv[2])
PY
mv "$src/unpacked/executorch"/* "$out/"
rm -rf "$src/unpacked"
# The unpacked libraries keep the wheel's RUNPATH ($ORIGIN first): they find each other in lib/.
chmod 0755 "$out"/lib/*.so
stamp_write "$stamp" "$key"
log "executorch: runtime $version ($(du -sh "$out/lib" | cut -f1) of libraries) unpacked into $out"
