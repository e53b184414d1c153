#!/usr/bin/env bash
# Python tools for model preparation and reference checks (not needed at run time on a robot),
# in the git-ignored venv .cache/tools-venv. Every tools/requirements-*.txt is installed.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.cache/tools-venv"
shopt -s nullglob
reqs=("$root"/tools/requirements-*.txt)
[ "${#reqs[@]}" -gt 0 ] || { log "pytools: no requirements"; exit 0; }
stamp="$root/.cache/stamps/pytools"
cons="$root/tools/constraints.txt"
key="$(cat "${reqs[@]}" "$cons" | sha256sum | cut -c1-16) $PIP_PIN"
if stamp_ok "$stamp" "$key" && [ -x "$venv/bin/python" ]; then
  log "pytools: up to date"
  exit 0
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
args=()
for r in "${reqs[@]}"; do args+=(-r "$r"); done
"$venv/bin/python" -m pip install -q "$PIP_PIN"
"$venv/bin/python" -m pip install -q "${args[@]}" -c "$cons"
stamp_write "$stamp" "$key"
log "pytools: installed ${#reqs[@]} requirement files"
