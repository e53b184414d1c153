#!/usr/bin/env bash
# Real photos for demos, calibration and reference checks, taken from Debian packages without
# installing them (and so without their dependency trees): `apt-get download` + `dpkg-deb -x`
# into .cache/photos-src, then the chosen photos are copied flat into .cache/photos/. A second,
# disjoint set goes to .cache/photos-holdout/: images INT8 calibration never sees, on which
# `htp-perception model quantize` validates the bootstrap's INT8 models.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
src="$root/.cache/photos-src"
dst="$root/.cache/photos"
holdout="$root/.cache/photos-holdout"
stamp="$root/.cache/stamps/photos"

# package -> photos inside it (paths relative to the extracted tree). opencv-doc is left out on
# purpose: ~96 MB download for a few more pictures.
darknet_dir=usr/share/darknet/data
darknet_photos=(person.jpg dog.jpg horses.jpg kite.jpg eagle.jpg giraffe.jpg scream.jpg)
skimage_dir=usr/lib/python3/dist-packages/skimage/data
skimage_photos=(astronaut.png chelsea.png coffee.png motorcycle_left.png motorcycle_right.png rocket.jpg)
# Held out of calibration: the one more photo of a person in the packages (camera.png) and
# scenes unlike the calibration set, where extra or lost INT8 boxes show up.
holdout_photos=(camera.png coins.png color.png horse.png hubble_deep_field.jpg page.png retina.jpg)

key="v2 ${darknet_photos[*]} ${skimage_photos[*]} holdout ${holdout_photos[*]}"
if stamp_ok "$stamp" "$key" && [ "$(find "$dst" -type f 2>/dev/null | wc -l)" -ge 13 ] &&
  [ "$(find "$holdout" -type f 2>/dev/null | wc -l)" -ge "${#holdout_photos[@]}" ]; then
  log "photos: up to date ($dst)"
  exit 0
fi
need_cmd apt-get "install apt (Debian 12 expected)"
need_cmd dpkg-deb "install dpkg"

mkdir -p "$src/debs" "$dst" "$holdout"
fetch_deb() {
  local pkg="$1"
  download_deb "$src/debs" "$pkg" photos
  dpkg-deb -x "$(ls "$src/debs/${pkg}"_*.deb | head -n1)" "$src/$pkg"
}
fetch_deb darknet
fetch_deb python3-skimage

for f in "${darknet_photos[@]}"; do
  [ -f "$src/darknet/$darknet_dir/$f" ] || die "photos: $f missing from package darknet"
  cp "$src/darknet/$darknet_dir/$f" "$dst/$f"
done
for f in "${skimage_photos[@]}"; do
  [ -f "$src/python3-skimage/$skimage_dir/$f" ] || die "photos: $f missing from package python3-skimage"
  cp "$src/python3-skimage/$skimage_dir/$f" "$dst/$f"
done
for f in "${holdout_photos[@]}"; do
  [ -f "$src/python3-skimage/$skimage_dir/$f" ] || die "photos: $f missing from package python3-skimage"
  cp "$src/python3-skimage/$skimage_dir/$f" "$holdout/$f"
done
stamp_write "$stamp" "$key"
log "photos: $(find "$dst" -type f | wc -l) photos in $dst, $(find "$holdout" -type f | wc -l) held out in $holdout"
