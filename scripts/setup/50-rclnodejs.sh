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

build_stamp="$pkg/build/.htp-stamp"
build_key="$version $(node --version) $(cat "$root/.ros/stamps/ros" 2>/dev/null || true)"
if stamp_ok "$build_stamp" "$build_key" && [ -f "$pkg/build/Release/rclnodejs.node" ]; then
  log "rclnodejs: native binding up to date"
else
  log "rclnodejs: building $version from source (a few minutes)"
  # node-gyp from rclnodejs' own dependencies; never downloads headers (nodedir=/usr).
  (cd "$pkg" && "$root/node_modules/.bin/node-gyp" rebuild -j "$(nproc)" --nodedir="${npm_config_nodedir}" >"$root/.ros/rclnodejs-build.log" 2>&1) \
    || { tail -30 "$root/.ros/rclnodejs-build.log" >&2; die "rclnodejs build failed (full log: .ros/rclnodejs-build.log)"; }
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
