#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine lacks, idempotently: each step in scripts/setup/
# (run in name order) checks what is already there and does only what is missing.
#   scripts/bootstrap.sh            all steps
#   scripts/bootstrap.sh 20-ros     only the steps whose names start with the given prefixes
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

for step in scripts/setup/*.sh; do
  name="$(basename "$step" .sh)"
  if [ "$#" -gt 0 ]; then
    wanted=0
    for p in "$@"; do [[ "$name" == "$p"* ]] && wanted=1; done
    [ "$wanted" = 1 ] || continue
  fi
  started=$(date +%s)
  log "step $name"
  bash "$step"
  log "step $name done in $(( $(date +%s) - started )) s"
done
