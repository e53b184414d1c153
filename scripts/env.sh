# shellcheck shell=bash
# Source this file to get the project's development ROS 2 environment:
#   source scripts/env.sh
# It points at the project-local ROS 2 Kilted prefix that scripts/bootstrap.sh installs from the
# ros-* Python wheels (there is no setup.bash in a wheel install, so we set the variables here).
# On a robot with a distro install, source /opt/ros/<distro>/setup.bash instead.

_htp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HTP_ROOT="$_htp_root"
export HTP_ROS_PREFIX="$_htp_root/.ros/venv"
export HTP_IFACE_PREFIX="$_htp_root/.ros/interfaces"

if [ -d "$HTP_ROS_PREFIX" ]; then
  export ROS_DISTRO=kilted
  export ROS_VERSION=2
  export ROS_PYTHON_VERSION=3
  # Interfaces we build ourselves (dev-only vision_msgs, our msg/) overlay the wheel prefix.
  export AMENT_PREFIX_PATH="$HTP_IFACE_PREFIX:$HTP_ROS_PREFIX"
  export CMAKE_PREFIX_PATH="$HTP_IFACE_PREFIX:$HTP_ROS_PREFIX"
  _htp_libs="$HTP_IFACE_PREFIX/lib:$HTP_ROS_PREFIX/lib"
  # auditwheel copies outside libraries (tinyxml2, ssl, ...) into site-packages/*.libs folders.
  for _d in "$HTP_ROS_PREFIX"/lib/python3*/site-packages/*.libs; do
    [ -d "$_d" ] && _htp_libs="$_htp_libs:$_d"
  done
  export LD_LIBRARY_PATH="$_htp_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  _htp_py="$(ls -d "$HTP_ROS_PREFIX"/lib/python3*/site-packages 2>/dev/null | head -n1)"
  export PYTHONPATH="$HTP_IFACE_PREFIX/lib/${_htp_py##*/lib/}${_htp_py:+:$_htp_py}${PYTHONPATH:+:$PYTHONPATH}"
  export PATH="$HTP_ROS_PREFIX/bin:$PATH"
  unset _d _htp_libs _htp_py
fi
export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"
# Keep discovery on this machine: tests and demos never talk to other hosts.
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-42}"
# Camera-sized frames in shared memory, discovery on loopback (see the file for why).
export FASTDDS_DEFAULT_PROFILES_FILE="${FASTDDS_DEFAULT_PROFILES_FILE:-$HTP_ROOT/config/fastdds_localhost.xml}"
# node-gyp / cmake-js: build against the headers of the Node on PATH, never download them. Its
# install prefix (where include/node lives) is found from the executable, not assumed to be /usr.
if [ -z "${npm_config_nodedir:-}" ] && command -v node >/dev/null 2>&1; then
  _htp_nodedir="$(node -p 'require("path").resolve(process.execPath, "..", "..")' 2>/dev/null || true)"
  [ -n "$_htp_nodedir" ] && [ -f "$_htp_nodedir/include/node/node_api.h" ] && export npm_config_nodedir="$_htp_nodedir"
  unset _htp_nodedir
fi
unset _htp_root
