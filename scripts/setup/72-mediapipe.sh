#!/usr/bin/env bash
# MediaPipe's trained person models as TFLite files from the npm registry (issue 17): BlazePose GHUM
# landmarks (lite, full, heavy) from @mediapipe/pose and selfie segmentation (general, landscape)
# from @mediapipe/selfie_segmentation. `npm pack` fetches each package tarball by exact version
# (never installed, never a dependency); the tarball and every .tflite taken out of it are checked
# against scripts/setup/mediapipe-files.txt and land in .cache/mediapipe/. Fetch and check only:
# `htp-perception model import .cache/mediapipe/X.tflite` converts one to ONNX with its manifest.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
pins="$root/scripts/setup/mediapipe-files.txt"
out="$root/.cache/mediapipe"
src="$out/packages"
stamp="$root/.cache/stamps/mediapipe"
need_cmd npm "install Node.js (npm comes with it)"
key="v1 $(sha256sum < "$pins" | cut -c1-16)"

# "package@version file sha256" lines; file "-" is the package tarball itself.
mapfile -t lines < <(grep -v '^[[:space:]]*#' "$pins" | awk 'NF == 3')
complete=1
for l in "${lines[@]}"; do
  read -r _ file _ <<< "$l"
  [ "$file" = - ] || [ -f "$out/$file" ] || complete=0
done
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ]; then
  log "mediapipe: up to date"
  exit 0
fi
models_not_frozen "mediapipe (scripts/setup/72-mediapipe.sh)"
mkdir -p "$src"
t0=$SECONDS
declare -A tarball
for l in "${lines[@]}"; do
  read -r spec file sha <<< "$l"
  [ "$file" = - ] || continue
  # npm pack names the file <scope>-<name>-<version>.tgz: @mediapipe/pose@1.2 -> mediapipe-pose-1.2.tgz
  name="${spec%@*}"
  tgz="$src/$(printf '%s' "${name#@}" | tr / -)-${spec##*@}.tgz"
  if [ ! -f "$tgz" ] || ! echo "$sha  $tgz" | sha256sum -c --quiet - 2>/dev/null; then
    rm -f "$tgz"
    # In the package folder, so npm writes nothing into the checkout.
    (cd "$src" && npm pack --silent "$spec" > /dev/null) || die "mediapipe: 'npm pack $spec' failed: check access to the npm registry"
  fi
  echo "$sha  $tgz" | sha256sum -c --quiet - ||
    die "mediapipe: $tgz has an unexpected sha256 (the registry serves another file for $spec)"
  tarball[$spec]="$tgz"
done
for l in "${lines[@]}"; do
  read -r spec file sha <<< "$l"
  [ "$file" = - ] && continue
  tgz="${tarball[$spec]:-}"
  [ -n "$tgz" ] || die "mediapipe: $pins lists $file in $spec but not the package's tarball"
  tar -xzf "$tgz" -O "package/$file" > "$out/$file.partial" || die "mediapipe: $file not in $tgz"
  echo "$sha  $out/$file.partial" | sha256sum -c --quiet - || die "mediapipe: $file from $spec has an unexpected sha256"
  mv "$out/$file.partial" "$out/$file"
done
stamp_write "$stamp" "$key"
log "mediapipe: $(( ${#lines[@]} - ${#tarball[@]} )) TFLite files from ${#tarball[@]} npm packages in $out ($((SECONDS - t0)) s)"
