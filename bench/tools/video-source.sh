#!/usr/bin/env bash
# Prints the path of the real video bench:video encodes: opencv-doc's vtest.avi (pedestrians in a
# street, 768x576, 10 fps; Apache-2.0 AND BSD-3-Clause as Debian ships it), taken from the .deb that
# bootstrap step 16 keeps in .cache/photos-src/debs (downloaded here when it is not there).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/lib.sh"
src="$root/.cache/photos-src"
avi="$src/opencv-doc/usr/share/doc/opencv-doc/examples/data/vtest.avi"
if [ ! -f "$avi" ]; then
  download_deb "$src/debs" opencv-doc "bench:video" >&2
  deb="$(ls "$src/debs"/opencv-doc_*.deb | head -n1)"
  mkdir -p "$src/opencv-doc"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$src/opencv-doc" ./usr/share/doc/opencv-doc/examples/data/vtest.avi >&2
fi
echo "$avi"
