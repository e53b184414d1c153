# shellcheck shell=bash
# Small helpers shared by the bootstrap steps.
log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*" >&2; }
die() { printf '[bootstrap] error: %s\n' "$*" >&2; exit 1; }
# A stamp file records that a step finished with a given input (versions, file hashes), so a
# second run skips work whose inputs did not change.
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
stamp_write() { mkdir -p "$(dirname "$1")"; printf '%s' "$2" > "$1"; }
# pip itself is pinned like every requirement: a newer pip may resolve the same files differently.
PIP_PIN="pip==26.3"
# The install prefix of the Node that runs the builds (its include/node holds node_api.h), so
# node-gyp and cmake-js compile against the headers of that very Node and never download any:
# /usr for Debian's nodejs, ~/.nvm/versions/node/vX for nvm, /opt/node-vX for a tarball.
# npm_config_nodedir, when set (scripts/env.sh sets it the same way), wins.
node_prefix() {
  local p="${npm_config_nodedir:-}"
  [ -n "$p" ] || p="$(node -p 'require("path").resolve(process.execPath, "..", "..")')" \
    || die "node is missing: install Node.js >= 20.20.2"
  [ -f "$p/include/node/node_api.h" ] \
    || die "Node headers missing: no $p/include/node/node_api.h (Debian: apt-get install libnode-dev; or set npm_config_nodedir to a Node install prefix that has include/node)"
  printf '%s' "$p"
}
need_cmd() { command -v "$1" >/dev/null 2>&1 || die "'$1' is missing: $2"; }
