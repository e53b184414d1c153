#!/usr/bin/env bash
# Real photos and short videos of people for the person models (BlazePose, selfie segmentation,
# the person detector), taken from Debian packages without installing them, like step 15:
# `apt-get download` into .cache/photos-src/debs, then only the files needed are extracted
# (`dpkg-deb --fsys-tarfile | tar -x`) into .cache/photos-src/<package>. Writes, under .cache/:
#   photos-people/            INT8 calibration photos of people (step 73)
#   photos-people-holdout/    disjoint held-out photos of people: INT8 validation, integration tests
#   photos-people-masks/      hand-drawn person masks of held-out photos, <photo>.person-mask.png
#                             (255 = person, 0 = not); kept apart because every .jpg/.png in a photo
#                             folder is taken for a photo
#   video-people/g1-NN.png    the 16 frames of a real video (a cyclist passing two men), in order,
#                             for the image_source camera stand-in
#   video-street/street-NN.jpg  5 consecutive frames of a street with small pedestrians
#   photos-people-sources.tsv where each file comes from: package, version, path, license
# opencv-doc's vtest.avi (pedestrians) is left out on purpose: a ~96 MB package for one video.
# Needs the tools venv of step 25 (OpenCV decodes the video, rotates and masks).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/.cache"
src="$cache/photos-src"
py="$cache/tools-venv/bin/python"
sources="$cache/photos-people-sources.tsv"
stamp="$cache/stamps/people"
out_dirs=(photos-people photos-people-holdout photos-people-masks video-people video-street)

dlib=usr/share/doc/libdlib19.1/examples/faces
voc=usr/share/doc/labelme-examples/examples/semantic_segmentation/data_dataset_voc
street=usr/share/doc/labelme-examples/examples/video_annotation/data_dataset_voc/JPEGImages
kpa=usr/share/kphotoalbum/demo
g1=usr/share/pymecavideo/data/video/g1.avi
g1_frames=16
# destination (relative to .cache) | package | path inside the package | how it is made
#   copy            the file as is
#   rot90cw         rotated 90 degrees clockwise (the photo is stored sideways, EXIF says upright)
#   mask:<dest>     binary person mask of a VOC class PNG (person = RGB 192,128,128), same size
#                   as the photo <dest>
#   frame:<i>       frame i (from 0) of the video
entries=(
  # Calibration: groups, full bodies, partly hidden and small people, indoors and out.
  "photos-people/dlib-2008_004176.jpg|libdlib19.1|$dlib/2008_004176.jpg|copy"
  "photos-people/dlib-2007_007763.jpg|libdlib19.1|$dlib/2007_007763.jpg|copy"
  "photos-people/darknet-person.jpg|darknet|usr/share/darknet/data/person.jpg|copy"
  "photos-people/darknet-kite.jpg|darknet|usr/share/darknet/data/kite.jpg|copy"
  "photos-people/kphotoalbum-cold_water.jpg|kphotoalbum|$kpa/cold_water.jpg|copy"
  "photos-people/kphotoalbum-wayne.jpg|kphotoalbum|$kpa/wayne.jpg|rot90cw"
  # The street frame has no person mask (its labels are car and track) and its 5 pedestrians
  # are too small for a whole-photo check, so it calibrates rather than validates.
  "photos-people/labelme-00000100.jpg|labelme-examples|$street/00000100.jpg|copy"
  # Held out: the labelme photos with hand-drawn person masks, and two scenes unlike the rest.
  "photos-people-holdout/labelme-2011_000006.jpg|labelme-examples|$voc/JPEGImages/2011_000006.jpg|copy"
  "photos-people-holdout/labelme-2011_000003.jpg|labelme-examples|$voc/JPEGImages/2011_000003.jpg|copy"
  "photos-people-holdout/gramps-1897_expeditionsmannschaft_rio_a.jpg|gramps|usr/share/doc/gramps/example/gramps/1897_expeditionsmannschaft_rio_a.jpg|copy"
  "photos-people-holdout/kphotoalbum-pool.jpg|kphotoalbum|$kpa/pool.jpg|copy"
  "photos-people-masks/labelme-2011_000006.person-mask.png|labelme-examples|$voc/SegmentationClassPNG/2011_000006.png|mask:photos-people-holdout/labelme-2011_000006.jpg"
  "photos-people-masks/labelme-2011_000003.person-mask.png|labelme-examples|$voc/SegmentationClassPNG/2011_000003.png|mask:photos-people-holdout/labelme-2011_000003.jpg"
)
for i in 0 1 2 3 4; do
  entries+=("video-street/street-0$i.jpg|labelme-examples|$street/0000010$i.jpg|copy")
done
for ((i = 0; i < g1_frames; i++)); do
  entries+=("$(printf 'video-people/g1-%02d.png' "$i")|python3-mecavideo|$g1|frame:$i")
done
# The license each package's debian/copyright states for these files, and a line of that file
# which must still be there (a changed copyright file stops the step, to be reviewed).
declare -A license=(
  [libdlib19.1]="Creative-Commons-Public-Domain (Files: examples/*)"
  [darknet]="GPL-3.0+ or MIT or WTFPL"
  [labelme-examples]="GPL-3+"
  [kphotoalbum]="GPL-2+"
  [gramps]="GPL-2+"
  [python3-mecavideo]="CC-BY-SA-3.0 (the example videos, (C) 2007 Benoît Markey)"
)
declare -A license_line=(
  [libdlib19.1]="License: Creative-Commons-Public-Domain"
  [darknet]="License: GPL-3.0+ or MIT or WTFPL"
  [labelme-examples]="License: GPL-3+"
  [kphotoalbum]="either version 2 of the License, or"
  [gramps]="License: GPL-2+"
  [python3-mecavideo]="Creative Commons, CC-BY-SA"
)

key="v1 $(printf '%s\n' "${entries[@]}" | sha256sum | cut -c1-16) ${entries[*]%%|*}"
complete=1
for e in "${entries[@]}"; do [ -f "$cache/${e%%|*}" ] || { complete=0; break; }; done
if stamp_ok "$stamp" "$key" && [ "$complete" = 1 ] && [ -f "$sources" ]; then
  log "people: up to date ($cache/photos-people, -holdout, -masks, video-people, video-street)"
  exit 0
fi
[ -x "$py" ] || die "people: $py missing: run scripts/setup/25-pytools.sh first"
need_cmd apt-get "install apt (Debian 12 expected)"
need_cmd dpkg-deb "install dpkg"
need_cmd tar "install tar"

mkdir -p "$src/debs"
deb_of() {
  local debs=("$src/debs/${1}"_*.deb)
  [ -f "${debs[0]}" ] || die "people: no .deb of package $1 in $src/debs"
  printf '%s' "${debs[0]}"
}
fetch_deb() {
  local pkg="$1"
  download_deb "$src/debs" "$pkg" people
}
# Extracts only the given paths (and the copyright file) of a package into $src/<package>.
extract() {
  local pkg="$1" deb members=() p
  shift
  deb="$(deb_of "$pkg")"
  for p in "$@" "usr/share/doc/$pkg/copyright"; do members+=("./$p"); done
  mkdir -p "$src/$pkg"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$src/$pkg" "${members[@]}" ||
    die "people: extracting ${members[*]} from $deb (package $pkg) failed"
  for p in "$@" "usr/share/doc/$pkg/copyright"; do
    [ -f "$src/$pkg/$p" ] || die "people: $p missing from package $pkg ($deb)"
  done
  grep -qF -- "${license_line[$pkg]}" "$src/$pkg/usr/share/doc/$pkg/copyright" ||
    die "people: the copyright file of $pkg no longer has '${license_line[$pkg]}': review the license of its photos, then update this step"
}

declare -A paths version
for e in "${entries[@]}"; do
  IFS='|' read -r _ pkg path _ <<<"$e"
  [[ " ${paths[$pkg]:-} " == *" $path "* ]] || paths[$pkg]="${paths[$pkg]:-} $path"
done
for pkg in libdlib19.1 darknet labelme-examples kphotoalbum gramps python3-mecavideo; do
  fetch_deb "$pkg"
  # shellcheck disable=SC2086 # the paths have no spaces
  extract "$pkg" ${paths[$pkg]}
  version[$pkg]="$(dpkg-deb -f "$(deb_of "$pkg")" Version)" ||
    die "people: cannot read the version of $(deb_of "$pkg") (package $pkg)"
done

# Rebuilt from scratch, so a file dropped from the list does not linger as a photo.
for d in "${out_dirs[@]}"; do rm -rf "${cache:?}/$d"; mkdir -p "$cache/$d"; done
cv_jobs=()
tsv="$(printf 'file\tpackage\tversion\tpath\tlicense\thow\n')"
for e in "${entries[@]}"; do
  IFS='|' read -r dest pkg path how <<<"$e"
  case "$how" in
    copy) cp "$src/$pkg/$path" "$cache/$dest"; note="copied" ;;
    rot90cw) cv_jobs+=(rot90cw "$src/$pkg/$path" "$cache/$dest" -)
      note="rotated 90 degrees clockwise (stored sideways)" ;;
    mask:*) cv_jobs+=(mask "$src/$pkg/$path" "$cache/$dest" "$cache/${how#mask:}")
      note="person mask of ${how#mask:} (255 where the class colour is person, RGB 192,128,128)" ;;
    frame:*) note="frame ${how#frame:} of $g1_frames" ;;
    *) die "people: unknown entry kind $how" ;;
  esac
  tsv+=$'\n'"$dest"$'\t'"$pkg"$'\t'"${version[$pkg]}"$'\t'"$path"$'\t'"${license[$pkg]}"$'\t'"$note"
done
cv_jobs+=(frames "$src/python3-mecavideo/$g1" "$cache/video-people/g1-%02d.png" "$g1_frames")

pycode="$(
  cat <<'PY'
import sys
try:
    import cv2
    import numpy as np
except ImportError as e:
    sys.exit(f"people: {e}: the tools venv lacks OpenCV; run scripts/setup/25-pytools.sh")

def fail(msg):
    sys.exit(f"people: {msg}")

def read(path, flags=cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION):
    im = cv2.imread(path, flags)
    if im is None:
        fail(f"cannot read {path}")
    return im

a = sys.argv[1:]
for kind, src, dst, extra in zip(a[0::4], a[1::4], a[2::4], a[3::4]):
    if kind == "rot90cw":
        im = cv2.rotate(read(src), cv2.ROTATE_90_CLOCKWISE)
        if not cv2.imwrite(dst, im, [cv2.IMWRITE_JPEG_QUALITY, 95]):
            fail(f"cannot write {dst}")
        print(f"{dst}: {im.shape[1]}x{im.shape[0]} (rotated)")
    elif kind == "mask":
        cls, photo = read(src), read(extra)
        if cls.shape[:2] != photo.shape[:2]:
            fail(f"{src} is {cls.shape[1]}x{cls.shape[0]}, its photo {extra} {photo.shape[1]}x{photo.shape[0]}")
        person = np.all(cls == (128, 128, 192), axis=2)  # BGR of the VOC palette's person
        if not person.any():
            fail(f"{src} has no person pixels (BGR 128,128,192)")
        if not cv2.imwrite(dst, person.astype(np.uint8) * 255):
            fail(f"cannot write {dst}")
        print(f"{dst}: {person.sum()} person pixels of {person.size}")
    elif kind == "frames":
        cap = cv2.VideoCapture(src)
        n, size = 0, ""
        while True:
            ok, im = cap.read()
            if not ok:
                break
            if not cv2.imwrite(dst % n, im):
                fail(f"cannot write {dst % n}")
            n, size = n + 1, f"{im.shape[1]}x{im.shape[0]}"
        if n != int(extra):
            fail(f"{src}: decoded {n} frames, expected {extra}")
        print(f"{src}: {n} frames {size}")
    else:
        fail(f"unknown job {kind}")
PY
)"
"$py" -c "$pycode" "${cv_jobs[@]}" >"$src/people.log" ||
  die "people: OpenCV processing failed (see the message above; $src/people.log)"
for e in "${entries[@]}"; do
  [ -f "$cache/${e%%|*}" ] || die "people: ${e%%|*} was not written"
done
printf '%s\n' "$tsv" >"$sources"
stamp_write "$stamp" "$key"
count() { find "$cache/$1" -type f | wc -l; }
log "people: $(count photos-people) photos in .cache/photos-people, $(count photos-people-holdout) held out (+$(count photos-people-masks) person masks), $(count video-people) video frames, $(count video-street) street frames; sources in $sources"
