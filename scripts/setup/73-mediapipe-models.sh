#!/usr/bin/env bash
# MediaPipe's trained person models (issue 17) made models of this package: each TFLite file of
# step 72 is converted to ONNX with `htp-perception model import` (tf2onnx in the tools venv, the
# conversion checked against the TFLite interpreter on the photos; nothing is written if the check
# fails) into models/mediapipe/ under the name the pipelines use, with its manifest:
#   blazepose-lite / -full / -heavy   pose_landmark_{lite,full,heavy}.tflite  (top-down pose)
#   selfie-segmentation               selfie_segmentation.tflite               (256x256)
#   selfie-segmentation-landscape     selfie_segmentation_landscape.tflite     (256x144)
# Then INT8 QDQ (`htp-perception model quantize`), calibrated on photos of people (step 26) and
# validated on held-out ones: BlazePose on the person crops the pipeline would cut (yolov8s-fall's
# boxes, src/tools/personCrops.ts), selfie segmentation on the whole photos; and the INT8 graphs
# compiled for the QCS6490's HTP v68 (`model compile`, on the QNN simulator here), which records
# node placement. The manifests are generated (their provenance records this machine's conversion
# differences) and git-ignored. Needs steps 25 (tools venv), 26 (photos of people), 68 (dist/),
# 70 (the person detector) and 72 (the TFLite files).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
cli="$root/dist/src/cli/main.js"
from="$root/.cache/mediapipe"
out="$root/models/mediapipe"
stamp="$root/.cache/stamps/mediapipe-models"
[ -x "$py" ] || die "mediapipe models: $py missing: run scripts/setup/25-pytools.sh first"
[ -f "$cli" ] || die "mediapipe models: $cli missing: run scripts/setup/68-typescript.sh first"

# "tflite-file model-name", in the order they are made.
models=(
  "pose_landmark_lite.tflite blazepose-lite"
  "pose_landmark_full.tflite blazepose-full"
  "pose_landmark_heavy.tflite blazepose-heavy"
  "selfie_segmentation.tflite selfie-segmentation"
  "selfie_segmentation_landscape.tflite selfie-segmentation-landscape"
)
people="$root/.cache/photos-people"
holdout="$root/.cache/photos-people-holdout"
[ -d "$people" ] && [ -d "$holdout" ] || die "mediapipe models: $people missing: run scripts/setup/26-people.sh first"
# The model families (src/families/) recognise the converted layouts and write their manifests.
mapfile -t families < <(find "$root/src/families" -name '*.ts' | sort)
key="v2 $(cat "$root/scripts/setup/mediapipe-files.txt" "$root/tools/models/convert_tflite.py" \
  "$root/tools/models/quantize_int8.py" "$root"/src/cli/tflite/*.ts "$root"/src/model/*Tflite*.ts \
  "$root"/src/model/conversionCheck.ts "$root/src/tools/personCrops.ts" "${families[@]}" |
  sha256sum | cut -c1-16)"
complete=1
for m in "${models[@]}"; do
  n="${m#* }"
  [ -f "$out/$n.onnx" ] && [ -f "$out/$n.manifest.json" ] && [ -f "$out/$n.int8.qdq.onnx" ] &&
    [ -f "$out/$n.qcs6490.ctx.onnx" ] || complete=0
done
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ]; then
  log "mediapipe models: up to date ($out)"
  exit 0
fi
models_not_frozen "mediapipe models (scripts/setup/73-mediapipe-models.sh)"
mkdir -p "$out"

# Calibration and validation images: person crops for BlazePose, whole photos for selfie.
crops="$root/.cache/people-crops"
rm -rf "$crops"
for set in calibration holdout; do
  dir="$people"; [ "$set" = holdout ] && dir="$holdout"
  bash "$root/scripts/with-env.sh" node "$root/dist/src/tools/personCrops.js" --photos "$dir" \
    --out "$crops/$set" >/dev/null || die "mediapipe models: person crops of $dir failed"
done
held=("$holdout"/*)
for m in "${models[@]}"; do
  read -r f name <<< "$m"
  [ -f "$from/$f" ] || die "mediapipe models: $from/$f missing: run scripts/setup/72-mediapipe.sh first"
  t0=$SECONDS
  cp "$from/$f" "$out/$name.tflite"
  import_log="$out/$name.import.log"
  bash "$root/scripts/with-env.sh" node "$cli" model import "$out/$name.tflite" --name "$name" \
    --force --python "$py" >"$import_log" 2>&1 ||
    die "mediapipe models: importing $f failed, see $import_log"
  images="$people" validate="$holdout"
  [[ "$name" == blazepose-* ]] && images="$crops/calibration" validate="$crops/holdout"
  qlog="$out/$name.int8.quantize.log"
  bash "$root/scripts/with-env.sh" node "$cli" model quantize "$out/$name.manifest.json" --python "$py" \
    --images "$images" --holdout "$validate" >"$qlog" 2>&1 ||
    die "mediapipe models: INT8 quantization of $name failed, see $qlog"
  clog="$out/$name.compile.log"
  bash "$root/scripts/with-env.sh" node "$cli" model compile "$out/$name.manifest.json" --force \
    --image "${held[0]}" >"$clog" 2>&1 ||
    die "mediapipe models: compiling $name for the HTP failed, see $clog"
  log "mediapipe models: $name from $f, INT8 QDQ, HTP v68 context ($((SECONDS - t0)) s; $import_log, $qlog, $clog)"
done
stamp_write "$stamp" "$key"
