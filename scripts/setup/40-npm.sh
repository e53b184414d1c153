#!/usr/bin/env bash
# npm dependencies from package-lock.json. Install scripts of dependencies stay blocked
# (package.json allowScripts): the native ones are built by our own later steps, with the right
# environment, instead of inside npm.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
need_cmd node "install Node.js >= 20.20.2"
node -e 'const [a,b,c]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&(b>20||(b===20&&c>=2)))?0:1)' \
  || die "Node.js $(node --version) is too old: rclnodejs 2.2 needs >= 20.20.2"
stamp="$root/node_modules/.htp-npm-stamp"
key="$(cat package.json package-lock.json | sha256sum | cut -c1-16)"
if stamp_ok "$stamp" "$key"; then
  log "npm: node_modules up to date"
  exit 0
fi
npm install --no-audit --no-fund --loglevel=error
stamp_write "$stamp" "$key"
