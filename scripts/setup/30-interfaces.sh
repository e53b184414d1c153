#!/usr/bin/env bash
# Interface packages the ROS we build against lacks, built with ament_cmake + rosidl into our
# overlay prefix (first on AMENT_PREFIX_PATH in scripts/env.sh; $HTP_IFACE_PREFIX: .ros/interfaces
# over the Kilted wheels, .ros/overlay/<distro> over a sourced ROS):
#   - interfaces/vision_msgs: dev-only restatement of vision_msgs 4.x, built only when the ROS
#     lacks vision_msgs (the wheels do; a robot's distro has ros-<distro>-vision-msgs);
#   - interfaces/foxglove_msgs: dev-only restatement of foxglove_msgs 3.4.x ImageAnnotations and
#     the types it holds, likewise only when the ROS lacks foxglove_msgs;
#   - interfaces/tf2_msgs: dev-only restatement of tf2_msgs' TFMessage (/tf, /tf_static), likewise
#     only when the ROS lacks tf2_msgs (the wheels have no tf2 packages; every distro install does);
#   - msg/ of the root package htp_perception (interfaces only; colcon builds the full package).
# rclnodejs (step 50) then generates JavaScript bindings for them.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/env.sh"
prefix="$HTP_IFACE_PREFIX"
work="$root/.ros/build/interfaces-$ROS_DISTRO-$HTP_ROS_MODE"
stamp="$prefix/.htp-stamp"
rel="${prefix#"$root"/}"

[ -n "$HTP_ROS_PREFIX" ] && [ -d "$HTP_ROS_PREFIX" ] || die "no ROS 2 prefix ($HTP_ROS_MODE): run scripts/bootstrap.sh 20-ros first"
need_cmd cmake "apt-get install cmake (or run scripts/bootstrap.sh 10-apt)"
need_cmd c++ "apt-get install build-essential (or run scripts/bootstrap.sh 10-apt)"
need_cmd make "apt-get install build-essential (or run scripts/bootstrap.sh 10-apt)"

# A package the ROS already has (on AMENT_PREFIX_PATH outside our overlay) is taken from it.
has_pkg() {
  local p
  for p in ${AMENT_PREFIX_PATH//:/ }; do
    [ "$p" = "$prefix" ] && continue
    [ -f "$p/share/ament_index/resource_index/packages/$1" ] && return 0
  done
  return 1
}
own=()
for pkg in vision_msgs foxglove_msgs tf2_msgs; do
  if has_pkg "$pkg"; then log "interfaces: $pkg from the ROS 2 $ROS_DISTRO install"; else own+=("$pkg"); fi
done

# Everything that decides the result: our inputs, this script, and the ROS we build against.
inputs=(package.xml CMakeLists.txt scripts/setup/30-interfaces.sh)
for pkg in "${own[@]}"; do inputs+=("interfaces/$pkg/package.xml" "interfaces/$pkg/CMakeLists.txt"); done
while IFS= read -r f; do inputs+=("$f"); done < <(cd "$root" && ls msg/*.msg && for pkg in "${own[@]}"; do ls interfaces/"$pkg"/msg/*.msg; done)
key="$( (cd "$root" && sha256sum "${inputs[@]}"; echo "$HTP_ROS_ID ${own[*]}") | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key" && [ -f "$prefix/share/ament_index/resource_index/packages/htp_perception" ]; then
  log "interfaces: ${own[*]:+${own[*]} and }htp_perception messages up to date in $rel"
  exit 0
fi
started=$SECONDS

# The ament/rosidl build tools that the ament_cmake / rosidl-default-generators wheels lack are
# pinned in scripts/setup/ros-requirements.txt and installed by step 20 (no unpinned pip here);
# a sourced ROS brings its own (ros-dev-tools), for the python3 on its PATH.
if [ "$HTP_ROS_MODE" = wheels ]; then py="$HTP_ROS_PREFIX/bin/python"; else py="$(command -v python3)"; fi
pyinc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
[ -f "$pyinc/Python.h" ] \
  || die "Python headers missing at $pyinc (rosidl's Python type support needs them): apt-get install python3-dev, or rebuild the interpreter of $py with its headers"
npinc="$("$py" -c 'import numpy; print(numpy.get_include())' 2>/dev/null)" \
  || die "numpy is missing for $py: rerun scripts/bootstrap.sh 20-ros (wheels) or apt-get install python3-numpy"
"$py" -c 'import em, lark, ament_package, catkin_pkg' 2>/dev/null \
  || die "empy/lark/ament_package/catkin_pkg missing for $py: rerun scripts/bootstrap.sh 20-ros (wheels) or apt-get install ros-dev-tools"

# A wheel install's exported CMake targets still name the manylinux build machine's Python and
# numpy include directories (/opt/python/cp3XX-cp3XX/...), which CMake rejects as non-existent.
# Point them at this Python's. Idempotent: once rewritten, nothing matches (nor in a distro install).
mapfile -t exports < <(grep -lE '/opt/python/cp3[0-9]+' "$HTP_ROS_PREFIX"/share/*/cmake/*.cmake 2>/dev/null || true)
if [ "${#exports[@]}" -gt 0 ]; then
  log "interfaces: pointing ${#exports[@]} wheel CMake exports at this machine's Python/numpy headers"
  sed -i -E \
    -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+t?/lib/python3\.[0-9]+t?/site-packages/numpy/_core/include#$npinc#g" \
    -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+t?/include/python3\.[0-9]+t?#$pyinc#g" \
    "${exports[@]}"
fi

jobs="$(nproc 2>/dev/null || echo 2)"
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DPython3_EXECUTABLE="$py"
            -DCMAKE_INSTALL_PREFIX="$prefix")

# build_pkg NAME SOURCE_DIR [cmake args...]
build_pkg() {
  local name="$1" src="$2"; shift 2
  local bdir="$work/$name" logf="$work/$name.log"
  rm -rf "$bdir"; mkdir -p "$bdir"
  log "interfaces: building $name for $ROS_DISTRO (log: ${logf#"$root"/})"
  { cmake -S "$src" -B "$bdir" "${cmake_args[@]}" "$@" \
      && cmake --build "$bdir" -j "$jobs" && cmake --install "$bdir"; } >"$logf" 2>&1 \
    || { tail -30 "$logf" >&2; die "building $name failed (full log: ${logf#"$root"/})"; }
}

rm -rf "$prefix"
for pkg in "${own[@]}"; do build_pkg "$pkg" "$root/interfaces/$pkg"; done
# The root package is configured from a staged copy holding only its interface inputs: CMake
# refuses exported include paths inside the source tree, and the overlay lives inside the checkout.
stage="$work/htp_perception-src"
rm -rf "$stage"; mkdir -p "$stage"
cp -r "$root/package.xml" "$root/CMakeLists.txt" "$root/msg" "$stage/"
build_pkg htp_perception "$stage" -DHTP_INTERFACES_ONLY=ON

# What rclnodejs and rclpy load at run time.
for pkg in "${own[@]}" htp_perception; do
  for ts in rosidl_typesupport_c rosidl_typesupport_fastrtps_c rosidl_typesupport_introspection_c rosidl_generator_c; do
    [ -f "$prefix/lib/lib${pkg}__${ts}.so" ] || die "interfaces: $prefix/lib/lib${pkg}__${ts}.so was not built"
  done
done
"$py" - <<'PY' || die "interfaces: the built messages do not load in rclpy (see above)"
from rclpy.serialization import serialize_message, deserialize_message
from vision_msgs.msg import Detection2DArray, Detection2D, ObjectHypothesisWithPose
from htp_perception.msg import PersonPoseArray
from foxglove_msgs.msg import ImageAnnotations, PointsAnnotation
arr = Detection2DArray()
d = Detection2D()
h = ObjectHypothesisWithPose()
h.hypothesis.class_id = "0"
h.hypothesis.score = 0.5
d.results.append(h)
arr.detections.append(d)
assert deserialize_message(serialize_message(arr), Detection2DArray) == arr
serialize_message(PersonPoseArray())
ann = ImageAnnotations()
ann.points.append(PointsAnnotation(type=PointsAnnotation.LINE_LOOP))
assert deserialize_message(serialize_message(ann), ImageAnnotations) == ann
PY
stamp_write "$stamp" "$key"
log "interfaces: built ${own[*]:+${own[*]} and }htp_perception messages into $rel in $((SECONDS - started)) s"
