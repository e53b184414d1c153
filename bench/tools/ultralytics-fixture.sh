#!/usr/bin/env bash
# npm run fixture:ultralytics: writes test/fixtures/models/yolo11n-ultralytics.json, Ultralytics'
# own predict() of the original YOLO11n / YOLO11n-seg end-to-end exports (.cache/registry-models,
# bootstrap step 71) on the bootstrap photos (.cache/photos, step 15), which
# test/integration/models/ultralyticsAccuracy.test.ts holds our pipeline to (issue 40). Needs the
# torch venv (tools/torch/ensure-torch-venv.sh, bootstrap step 76: several GB);
# the test itself reads only the committed JSON. Run it again when a photo, a model file or the
# pinned Ultralytics changes, and commit the JSON with what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/test/fixtures/models/yolo11n-ultralytics.json}"
python="$(bash "$root/bench/tools/ensure-ultralytics.sh" | sed -n 's/^python //p')"
[ -x "$python" ] || { echo "fixture:ultralytics: no Python from ensure-ultralytics.sh" >&2; exit 1; }
models="$root/.cache/registry-models"
for f in yolo11n.onnx yolo11n-seg.onnx; do
  [ -f "$models/$f" ] || { echo "fixture:ultralytics: $models/$f missing: run scripts/bootstrap.sh 71-registry-models" >&2; exit 1; }
done
[ -d "$root/.cache/photos" ] || { echo "fixture:ultralytics: .cache/photos missing: run scripts/bootstrap.sh 15-photos" >&2; exit 1; }
# The JSON names photos and models by file name and SHA-256, never by this checkout's path.
"$python" "$root/bench/tools/ultralytics_fixture.py" --out "$out" \
  --command "npm run fixture:ultralytics (bench/tools/ultralytics-fixture.sh)" \
  --photos "$root/.cache/photos" \
  "yolo11n=$models/yolo11n.onnx:detect" "yolo11n-seg=$models/yolo11n-seg.onnx:segment"
echo "fixture:ultralytics: wrote $out ($(du -k "$out" | cut -f1) KB)"
