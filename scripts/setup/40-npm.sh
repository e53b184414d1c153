#!/usr/bin/env bash
# npm dependencies exactly as package-lock.json records them: `npm ci` never rewrites the lockfile
# (`npm install` may), and fails when package.json and the lockfile disagree.
#
# Install scripts of dependencies never run here (--ignore-scripts): the native ones (rclnodejs,
# onnxruntime-node's CUDA download, sharp's libvips check) are built or skipped by our own later
# steps, with the right environment. package.json `allowScripts` records the same decision, but it
# does not enforce it on its own. Measured with npm 11.19.1 in a scratch project (registry package
# es5-ext 0.10.64 with a postinstall script):
#   - listed `false`  -> script skipped;
#   - not listed      -> script RUNS, then a warning "not yet covered by allowScripts" (advisory,
#                        although `npm help install-scripts` says "blocked by default");
#   - listed `true`   -> script runs.
# Dependencies from file:/git sources ran their scripts even when listed `false`. So a new
# dependency with an install script would run it unless it is listed; --ignore-scripts closes that.
#
# `npm ci` deletes node_modules first. Step 50's stamps live inside node_modules/rclnodejs (build/
# and generated/), so a re-run of `npm ci` also invalidates them and step 50 rebuilds rclnodejs.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
need_cmd node "install Node.js >= 20.20.2"
need_cmd npm "install npm (it comes with Node.js)"
node -e 'const [a,b,c]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&(b>20||(b===20&&c>=2)))?0:1)' \
  || die "Node.js $(node --version) is too old: rclnodejs 2.2 needs >= 20.20.2"
# The stamp lives inside node_modules, so anything that removes node_modules removes it too.
stamp="$root/node_modules/.htp-npm-stamp"
key="$(cat package.json package-lock.json | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key"; then
  log "npm: node_modules up to date"
  exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error \
  || die "npm ci failed: package.json and package-lock.json must agree (run 'npm install' on purpose and commit the lockfile)"
stamp_write "$stamp" "$key"
log "npm: node_modules installed from package-lock.json"
