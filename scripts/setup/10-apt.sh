#!/usr/bin/env bash
# Debian packages the build needs. Installs only what is missing; needs root (or sudo).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

# libopenh264-dev, libavcodec-dev, pkg-config: the video addon (step 66: OpenH264, and libavcodec
# for the V4L2 hardware encoder and x264). chromium: tests only, WebCodecs (the decoder of
# Foxglove's web app) decoding the video (test/support/webCodecsDecode.ts).
pkgs=(build-essential cmake git patch pkg-config python3 python3-venv python3-dev fontconfig fonts-dejavu-core
      libopenh264-dev libavcodec-dev chromium colcon python3-colcon-ros
      python3-colcon-cmake python3-colcon-bash python3-colcon-package-selection
      python3-colcon-output python3-colcon-parallel-executor python3-colcon-recursive-crawl
      python3-colcon-test-result python3-colcon-defaults python3-colcon-library-path)
apt_install_missing "${pkgs[@]}"
