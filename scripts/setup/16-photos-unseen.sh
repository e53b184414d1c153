#!/usr/bin/env bash
# Photos no model of this package was calibrated, validated or tuned on (issue 34's acceptance):
# a football match, a basketball game and a car in a street, from Debian's opencv-doc
# (examples/data, under the package's Apache-2.0 AND BSD-3-Clause terms; the .deb is ~96 MB, taken
# once and kept in .cache/photos-src/debs). Written to .cache/photos-unseen/ with a sources table.
# Only tests read them (COCO classes where they are: person, sports ball, car); never calibration.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
src="$root/.cache/photos-src"
dst="$root/.cache/photos-unseen"
stamp="$root/.cache/stamps/photos-unseen"
data=usr/share/doc/opencv-doc/examples/data
# file in the package -> name here (what the photo shows)
photos=(
  "messi5.jpg football-match.jpg"
  "basketball1.png basketball-game.png"
  "licenseplate_motion.jpg street-car.jpg"
)
key="v1 ${photos[*]}"
if stamp_ok "$stamp" "$key" && [ "$(find "$dst" -type f -name '*.*g' 2>/dev/null | wc -l)" -ge "${#photos[@]}" ]; then
  log "unseen photos: up to date ($dst)"
  exit 0
fi
need_cmd apt-get "install apt (Debian 12 expected)"
need_cmd dpkg-deb "install dpkg"
download_deb "$src/debs" opencv-doc "unseen photos"
deb="$(ls "$src/debs"/opencv-doc_*.deb | head -n1)"
members=()
for p in "${photos[@]}"; do members+=("./$data/${p%% *}"); done
mkdir -p "$src/opencv-doc" "$dst"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$src/opencv-doc" "${members[@]}" ||
  die "unseen photos: extracting ${members[*]} from $deb failed"
version="$(dpkg-deb -f "$deb" Version)"
printf 'file\tpackage\tversion\tpath\tlicense\n' > "$dst/sources.tsv"
for p in "${photos[@]}"; do
  read -r from to <<< "$p"
  [ -f "$src/opencv-doc/$data/$from" ] || die "unseen photos: $from missing from opencv-doc ($deb)"
  cp "$src/opencv-doc/$data/$from" "$dst/$to"
  printf '%s\topencv-doc\t%s\t%s\tApache-2.0 AND BSD-3-Clause (Debian copyright, Files: *)\n' \
    "$to" "$version" "$data/$from" >> "$dst/sources.tsv"
done
stamp_write "$stamp" "$key"
log "unseen photos: ${#photos[@]} photos in $dst (football match, basketball game, car in a street)"
