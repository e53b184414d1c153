#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine lacks, idempotently: each step in scripts/setup/
# (the NN-name.sh files, run in name order; other .sh files there are libraries the steps source)
# checks what is already there and does only what is missing.
#   scripts/bootstrap.sh            all steps
#   scripts/bootstrap.sh 20-ros     only the steps whose names start with the given prefixes
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
# Which ROS everything is built against, decided once here for every step (scripts/env.sh).
source scripts/env.sh
if [ "$HTP_ROS_MODE" = sourced ]; then
  log "ROS 2: $ROS_DISTRO at ${HTP_ROS_PREFIX:-?} (the sourced environment; our interfaces overlay it from .ros/overlay/$ROS_DISTRO)"
else
  log "ROS 2: kilted from the PyPI wheels at .ros/venv (no ROS 2 environment sourced)"
fi

for step in scripts/setup/[0-9][0-9]-*.sh; do
  name="$(basename "$step" .sh)"
  if [ "$#" -gt 0 ]; then
    wanted=0
    for p in "$@"; do [[ "$name" == "$p"* ]] && wanted=1; done
    [ "$wanted" = 1 ] || continue
  fi
  started=$(date +%s)
  log "step $name"
  bash "$step"
  log "step $name done in $(( $(date +%s) - started )) s"
done
