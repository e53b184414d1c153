#!/usr/bin/env bash
# Interface packages the wheels lack, built with ament_cmake + rosidl from .ros/venv into the
# overlay prefix .ros/interfaces (first on AMENT_PREFIX_PATH in scripts/env.sh):
#   - interfaces/vision_msgs: dev-only restatement of vision_msgs 4.x (a robot uses the distro's);
#   - interfaces/foxglove_msgs: dev-only restatement of foxglove_msgs 3.4.x ImageAnnotations and
#     the types it holds (a robot uses the distro's);
#   - msg/ of the root package htp_perception (interfaces only; colcon builds the full package).
# rclnodejs (step 50) then generates JavaScript bindings for both.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.ros/venv"
prefix="$root/.ros/interfaces"
work="$root/.ros/build/interfaces"
stamp="$root/.ros/stamps/interfaces"

[ -x "$venv/bin/python" ] || die "ROS prefix .ros/venv is missing: run scripts/bootstrap.sh 20-ros first"
need_cmd cmake "apt-get install cmake (or run scripts/bootstrap.sh 10-apt)"
need_cmd c++ "apt-get install build-essential (or run scripts/bootstrap.sh 10-apt)"
need_cmd make "apt-get install build-essential (or run scripts/bootstrap.sh 10-apt)"

# Everything that decides the result: our inputs, this script, and the wheel set of step 20.
inputs=(interfaces/vision_msgs/package.xml interfaces/vision_msgs/CMakeLists.txt
        interfaces/foxglove_msgs/package.xml interfaces/foxglove_msgs/CMakeLists.txt
        package.xml CMakeLists.txt scripts/setup/30-interfaces.sh)
while IFS= read -r f; do inputs+=("$f"); done < <(cd "$root" && ls interfaces/vision_msgs/msg/*.msg interfaces/foxglove_msgs/msg/*.msg msg/*.msg)
key="$( (cd "$root" && sha256sum "${inputs[@]}"; cat "$root/.ros/stamps/ros" 2>/dev/null || true) | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key" && [ -f "$prefix/share/ament_index/resource_index/packages/htp_perception" ]; then
  log "interfaces: vision_msgs, foxglove_msgs and htp_perception messages up to date in .ros/interfaces"
  exit 0
fi
started=$SECONDS

# The ament/rosidl build tools that the ament_cmake / rosidl-default-generators wheels lack are
# pinned in scripts/setup/ros-requirements.txt and installed by step 20 (no unpinned pip here).
py="$venv/bin/python"
pyinc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
[ -f "$pyinc/Python.h" ] \
  || die "Python headers missing at $pyinc (rosidl's Python type support needs them): apt-get install python3-dev, or rebuild the interpreter of .ros/venv with its headers"
npinc="$("$py" -c 'import numpy; print(numpy.get_include())' 2>/dev/null)" \
  || die "numpy is missing from .ros/venv: rerun scripts/bootstrap.sh 20-ros"
"$py" -c 'import em, lark, ament_package, catkin_pkg' 2>/dev/null \
  || die "empy/lark/ament_package/catkin_pkg missing from .ros/venv: rerun scripts/bootstrap.sh 20-ros"

# The wheels' exported CMake targets still name the manylinux build machine's Python and numpy
# include directories (/opt/python/cp3XX-cp3XX/...), which CMake rejects as non-existent. Point
# them at this venv's. Idempotent: once rewritten, nothing matches.
mapfile -t exports < <(grep -lE '/opt/python/cp3[0-9]+' "$venv"/share/*/cmake/*.cmake 2>/dev/null || true)
if [ "${#exports[@]}" -gt 0 ]; then
  log "interfaces: pointing ${#exports[@]} wheel CMake exports at this machine's Python/numpy headers"
  sed -i -E \
    -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+t?/lib/python3\.[0-9]+t?/site-packages/numpy/_core/include#$npinc#g" \
    -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+t?/include/python3\.[0-9]+t?#$pyinc#g" \
    "${exports[@]}"
fi

source "$root/scripts/env.sh"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DPython3_EXECUTABLE="$py"
            -DCMAKE_INSTALL_PREFIX="$prefix")

# build_pkg NAME SOURCE_DIR [cmake args...]
build_pkg() {
  local name="$1" src="$2"; shift 2
  local bdir="$work/$name" logf="$root/.ros/interfaces-$name.log"
  rm -rf "$bdir"; mkdir -p "$bdir"
  log "interfaces: building $name (log: .ros/interfaces-$name.log)"
  { cmake -S "$src" -B "$bdir" "${cmake_args[@]}" "$@" \
      && cmake --build "$bdir" -j "$jobs" && cmake --install "$bdir"; } >"$logf" 2>&1 \
    || { tail -30 "$logf" >&2; die "building $name failed (full log: .ros/interfaces-$name.log)"; }
}

rm -rf "$prefix"
build_pkg vision_msgs "$root/interfaces/vision_msgs"
build_pkg foxglove_msgs "$root/interfaces/foxglove_msgs"
# The root package is configured from a staged copy holding only its interface inputs: CMake
# refuses exported include paths inside the source tree, and .ros/venv lives inside the checkout.
stage="$work/htp_perception-src"
rm -rf "$stage"; mkdir -p "$stage"
cp -r "$root/package.xml" "$root/CMakeLists.txt" "$root/msg" "$stage/"
build_pkg htp_perception "$stage" -DHTP_INTERFACES_ONLY=ON

# What rclnodejs and rclpy load at run time.
for pkg in vision_msgs foxglove_msgs htp_perception; do
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
log "interfaces: built vision_msgs, foxglove_msgs and htp_perception messages into .ros/interfaces in $((SECONDS - started)) s"
