#!/usr/bin/env bash
# Qualcomm AI Hub I/O layouts rebuilt from the bootstrap models (no AI Hub asset is on a registry):
# tools/models/make_aihub_layouts.py appends AI Hub's output nodes to yolov8s-fall (split boxes /
# scores / uint8 class_idx), DeepLabV3 (uint8 argmax mask) and HRNet (NHWC heatmaps), and writes
# their manifests beside them in .cache/aihub-layout/. Kept out of models/ on purpose: the main job,
# the benchmarks and the five-model test scan models/ only. Used by
# test/integration/models/aihubLayouts.test.ts. Needs step 70 (the source models) and the tools venv.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
tool="$root/tools/models/make_aihub_layouts.py"
out="$root/.cache/aihub-layout"
stamp="$root/.cache/stamps/aihub-layouts"
[ -x "$py" ] || die "aihub-layouts: $py missing: run scripts/setup/25-pytools.sh (tools venv) first"
"$py" -c "import onnx" 2>/dev/null ||
  die "aihub-layouts: the tools venv lacks onnx: re-run scripts/setup/25-pytools.sh"
sources=(
  "$root/models/yolov8-fall/yolov8s-fall.onnx" "$root/models/yolov8-fall/yolov8s-fall.manifest.json"
  "$root/models/deeplabv3/deeplabv3-mobilenetv3-large-520.onnx"
  "$root/models/deeplabv3/deeplabv3-mobilenetv3-large-520.manifest.json"
  "$root/models/hrnet/hrnet-w32-256x192.onnx" "$root/models/hrnet/hrnet-w32-256x192.manifest.json"
)
for f in "${sources[@]}"; do
  [ -f "$f" ] || die "aihub-layouts: $f missing: run scripts/setup/70-models.sh first"
done
# The key covers the tool and the exact source files, so a rebuilt source model redoes the layouts.
key="v1 $(cat "$tool" "${sources[@]}" | sha256sum | cut -c1-16)"
outputs=(yolov8s-fall-aihub deeplabv3-aihub-argmax hrnet-nhwc)
complete=1
for n in "${outputs[@]}"; do
  [ -f "$out/$n.onnx" ] && [ -f "$out/$n.manifest.json" ] || complete=0
done
if [ "$complete" = 1 ] && stamp_ok "$stamp" "$key"; then
  log "aihub-layouts: up to date ($out)"
  exit 0
fi
models_not_frozen "aihub-layouts (scripts/setup/75-aihub-layouts.sh)"
t0=$SECONDS
"$py" "$tool" "$root/models" "$out" >/dev/null ||
  die "aihub-layouts: building the AI-Hub-layout models failed (run $tool models $out to see why)"
stamp_write "$stamp" "$key"
log "aihub-layouts: ${outputs[*]} in $out ($((SECONDS - t0)) s)"
