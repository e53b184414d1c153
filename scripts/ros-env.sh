# shellcheck shell=bash
# Source this file for the ROS 2 environment alone, as a distro's setup.bash gives it:
#   source scripts/ros-env.sh
# It is what "only the ROS environment" means on a machine without a ROS install (development
# machines, CI): the ROS 2 Kilted wheels bootstrap installs into .ros/venv (a wheel install has no
# setup.bash of its own). On a robot that is `source /opt/ros/<distro>/setup.bash` instead.
# Nothing of this project is set: no HTP_* variable, no interface overlay (.ros/interfaces), no
# discovery range, domain id or DDS profile (scripts/env.sh adds those for development and tests).
# The installed package is tested from such a shell plus install/setup.bash
# (test/integration/install/).

_htp_ros_venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.ros/venv"
if [ ! -d "$_htp_ros_venv/lib" ]; then
  echo "scripts/ros-env.sh: no ROS 2 wheels at $_htp_ros_venv: run scripts/bootstrap.sh 20-ros" >&2
  unset _htp_ros_venv
  return 1 2>/dev/null || exit 1
fi
export ROS_DISTRO=kilted
export ROS_VERSION=2
export ROS_PYTHON_VERSION=3
export AMENT_PREFIX_PATH="$_htp_ros_venv${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
export CMAKE_PREFIX_PATH="$_htp_ros_venv${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
_htp_ros_libs="$_htp_ros_venv/lib"
# auditwheel copies outside libraries (tinyxml2, ssl, ...) into site-packages/*.libs folders.
for _htp_d in "$_htp_ros_venv"/lib/python3*/site-packages/*.libs; do
  [ -d "$_htp_d" ] && _htp_ros_libs="$_htp_ros_libs:$_htp_d"
done
export LD_LIBRARY_PATH="$_htp_ros_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
_htp_site="$(ls -d "$_htp_ros_venv"/lib/python3*/site-packages 2>/dev/null | head -n1)"
export PYTHONPATH="$_htp_site${PYTHONPATH:+:$PYTHONPATH}"
export PATH="$_htp_ros_venv/bin:$PATH"
unset _htp_ros_venv _htp_ros_libs _htp_d _htp_site
