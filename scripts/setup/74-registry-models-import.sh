#!/usr/bin/env bash
# The trained COCO-80 and VOC-21 models of step 71 made models of this package (issue 34), each
# with no hand-written manifest:
#   yolo11n                     yolo11n.onnx       COCO-80 detection (Ultralytics end-to-end export)
#   yolo11n-seg                 yolo11n-seg.onnx   COCO-80 instance segmentation (end-to-end)
#   deeplabv3-mobilenetv2-257   deeplabv3.tflite   VOC-21 semantic segmentation (TFLite + metadata)
# `htp-perception model import` writes each manifest from the file itself (Ultralytics metadata;
# TFLite metadata, the conversion checked against the TFLite interpreter; the YOLO11 exports cut
# at their raw head with --raw-head, so the HTP runs the whole network), then INT8 QDQ
# (`model quantize`, calibrated on the photos with people and objects of steps 15 and 26, validated
# on their held-out photos) and the INT8 graph compiled for the QCS6490's HTP v68 (`model compile`,
# on the QNN simulator here), which records node placement in <name>.compile.log. The manifests are
# generated and git-ignored, like MediaPipe's. Needs steps 25, 26, 60, 68 and 71.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
cli="$root/dist/src/cli/main.js"
from="$root/.cache/registry-models"
stamp="$root/.cache/stamps/registry-models-import"
[ -x "$py" ] || die "registry models: $py missing: run scripts/setup/25-pytools.sh first"
[ -f "$cli" ] || die "registry models: $cli missing: run scripts/setup/68-typescript.sh first"

# "source-file model-name", in the order they are made.
models=(
  "yolo11n.onnx yolo11n"
  "yolo11n-seg.onnx yolo11n-seg"
  "deeplabv3.tflite deeplabv3-mobilenetv2-257"
)
# The model families (src/families/) recognise the files and write their manifests.
mapfile -t families < <(find "$root/src/families" -name '*.ts' | sort)
key="v1 $(cat "$root/scripts/setup/registry-models.txt" "$root/tools/models/convert_tflite.py" \
  "$root/tools/models/quantize_int8.py" "$root"/src/model/*.ts "$root"/src/cli/tflite/*.ts \
  "$root/src/cli/modelImportCommand.ts" "$root"/src/quantize/*.ts "${families[@]}" |
  sha256sum | cut -c1-16)"
complete=1
for m in "${models[@]}"; do
  n="${m#* }"
  d="$root/models/$n"
  [ -f "$d/$n.onnx" ] && [ -f "$d/$n.manifest.json" ] && [ -f "$d/$n.int8.qdq.onnx" ] &&
    [ -f "$d/$n.qcs6490.ctx.onnx" ] || complete=0
done
[ -f "$root/models/yolo11n/yolo11n-b4.manifest.json" ] &&
  [ -f "$root/models/yolo11n/yolo11n-b4.qcs6490.ctx.onnx" ] || complete=0
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ]; then
  log "registry models: imported, quantized and compiled (models/yolo11n, its batch-4 copy yolo11n-b4, yolo11n-seg, deeplabv3-mobilenetv2-257)"
  exit 0
fi
models_not_frozen "registry models import (scripts/setup/74-registry-models-import.sh)"

# Calibration: every photo with people or objects (steps 15 and 26); validation: their held-out
# photos. One folder of links each, since `model quantize` takes one folder per role.
calib="$root/.cache/registry-calibration"
rm -rf "$calib"
mkdir -p "$calib/images" "$calib/holdout"
for d in photos photos-people; do
  for f in "$root/.cache/$d"/*; do ln -s "$f" "$calib/images/$d-$(basename "$f")"; done
done
for d in photos-holdout photos-people-holdout; do
  for f in "$root/.cache/$d"/*; do ln -s "$f" "$calib/holdout/$d-$(basename "$f")"; done
done
held=("$root"/.cache/photos-people-holdout/*)

for m in "${models[@]}"; do
  read -r f name <<< "$m"
  [ -f "$from/$f" ] || die "registry models: $from/$f missing: run scripts/setup/71-registry-models.sh first"
  t0=$SECONDS
  out="$root/models/$name"
  mkdir -p "$out"
  ext="${f##*.}"
  import_log="$out/$name.import.log"
  if [ "$ext" = tflite ]; then
    cp "$from/$f" "$out/$name.tflite"
    bash "$root/scripts/with-env.sh" node "$cli" model import "$out/$name.tflite" --name "$name" \
      --force --python "$py" >"$import_log" 2>&1 ||
      die "registry models: importing $f failed, see $import_log"
  else
    # The YOLO11 exports end in Ultralytics' NMS, which the HTP v68 does not take (the uncut INT8
    # graph fails to finalize on the simulator): shipped cut at the raw head, our NMS on the CPU.
    # The end-to-end file itself stays in .cache/registry-models (bench:ultralytics' reference).
    cp "$from/$f" "$out/$name-end2end.onnx"
    bash "$root/scripts/with-env.sh" node "$cli" model import "$out/$name-end2end.onnx" --raw-head \
      --name "$name" --force >"$import_log" 2>&1 ||
      die "registry models: importing $f cut at its raw head failed, see $import_log"
    rm -f "$out/$name-end2end.onnx"
  fi
  qlog="$out/$name.int8.quantize.log"
  bash "$root/scripts/with-env.sh" node "$cli" model quantize "$out/$name.manifest.json" --python "$py" \
    --images "$calib/images" --holdout "$calib/holdout" >"$qlog" 2>&1 ||
    die "registry models: INT8 quantization of $name failed, see $qlog"
  clog="$out/$name.compile.log"
  bash "$root/scripts/with-env.sh" node "$cli" model compile "$out/$name.manifest.json" --force \
    --image "${held[0]}" >"$clog" 2>&1 ||
    die "registry models: compiling $name for the HTP failed, see $clog"
  log "registry models: $name from $f, INT8 QDQ, HTP v68 context ($((SECONDS - t0)) s; $import_log, $qlog, $clog)"
done
# Four cameras, one run (issue 44): the default detector's batch-4 copy (every file re-batched and
# proven slot by slot against yolo11n on the CPU) and its own HTP context, compiled for batch 4.
t0=$SECONDS
b="$root/models/yolo11n"
bash "$root/scripts/with-env.sh" node "$cli" model import yolo11n --batch 4 --force >"$b/yolo11n-b4.import.log" 2>&1 ||
  die "registry models: the batch-4 copy of yolo11n failed, see $b/yolo11n-b4.import.log"
bash "$root/scripts/with-env.sh" node "$cli" model compile yolo11n-b4 --force --image "${held[0]}" \
  >"$b/yolo11n-b4.compile.log" 2>&1 ||
  die "registry models: compiling yolo11n-b4 for the HTP failed, see $b/yolo11n-b4.compile.log"
log "registry models: yolo11n-b4, batch 4, INT8 QDQ, HTP v68 context ($((SECONDS - t0)) s; $b/yolo11n-b4.import.log, $b/yolo11n-b4.compile.log)"
stamp_write "$stamp" "$key"
