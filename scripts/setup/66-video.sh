#!/usr/bin/env bash
# Builds the video addon (native/video/: OpenH264, and libavcodec for V4L2 and x264) with cmake-js
# into build/video/Release/htp_video.node. Debian packages libopenh264-dev and libavcodec-dev
# (step 10-apt). Set HTP_VIDEO_ASAN=1 for an AddressSanitizer variant in build/video-asan.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
need_cmd cmake "apt-get install cmake (>= 3.18)"
need_cmd pkg-config "apt-get install pkg-config (or run scripts/bootstrap.sh 10-apt)"
pkg-config --exists openh264 || die "video: OpenH264 missing: apt-get install libopenh264-dev (or run scripts/bootstrap.sh 10-apt)"
nodedir="$(node_prefix)"
napi_inc="$(node -p "require('path').dirname(require.resolve('node-addon-api/package.json'))")"
asan="${HTP_VIDEO_ASAN:-0}"
out="build/video"; [ "$asan" = 1 ] && out="build/video-asan"
stamp="$root/$out/.stamp"
key="$( (find native/video -type f -print0 | sort -z | xargs -0 cat; echo "$asan";
  pkg-config --modversion openh264 libavcodec 2>/dev/null || true) | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key" && [ -f "$root/$out/Release/htp_video.node" ]; then
  log "video: $out up to date"
  exit 0
fi
rm -f "$out/CMakeCache.txt" "$stamp"
npm_config_nodedir="$nodedir" node_modules/.bin/cmake-js build --log-level warn -d native/video -O "$out" \
  --CDNODE_ADDON_API_DIR="$napi_inc" --CDHTP_VIDEO_ASAN="$asan" \
  || die "video: cmake-js build failed (see the compiler output above)"
preload=""; [ "$asan" = 1 ] && preload="$(g++ -print-file-name=libasan.so)"
LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 node -e "
  const v = require('$root/$out/Release/htp_video.node');
  console.log('[video] built: ' + JSON.stringify(v.libraries()));" \
  || die "video: built but does not load"
stamp_write "$stamp" "$key"
