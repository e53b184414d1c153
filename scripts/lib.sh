# shellcheck shell=bash
# Small helpers shared by the bootstrap steps.
log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*" >&2; }
die() { printf '[bootstrap] error: %s\n' "$*" >&2; exit 1; }
# A stamp file records that a step finished with a given input (versions, file hashes), so a
# second run skips work whose inputs did not change.
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
stamp_write() { mkdir -p "$(dirname "$1")"; printf '%s' "$2" > "$1"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || die "'$1' is missing: $2"; }
