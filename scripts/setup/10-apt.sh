#!/usr/bin/env bash
# Debian packages the build needs. Installs only what is missing; needs root (or sudo).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

pkgs=(build-essential cmake git patch python3 python3-venv python3-dev fontconfig fonts-dejavu-core colcon python3-colcon-ros
      python3-colcon-cmake python3-colcon-bash python3-colcon-package-selection
      python3-colcon-output python3-colcon-parallel-executor python3-colcon-recursive-crawl
      python3-colcon-test-result python3-colcon-defaults python3-colcon-library-path)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  log "apt: all ${#pkgs[@]} packages present"
  exit 0
fi
log "apt: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "installing ${missing[*]} needs root: run as root or install sudo"
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
