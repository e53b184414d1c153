# shellcheck shell=bash
# Small helpers shared by the bootstrap steps.
log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*" >&2; }
die() { printf '[bootstrap] error: %s\n' "$*" >&2; exit 1; }
# A test run points TMPDIR into the checkout and removes that folder between its suites; a step
# run in between (test:jazzy's bootstrap) must still find it for mktemp and the tools' temp files.
if [ -n "${TMPDIR:-}" ] && [ ! -d "$TMPDIR" ]; then mkdir -p "$TMPDIR"; fi
# A stamp file records that a step finished with a given input (versions, file hashes), so a
# second run skips work whose inputs did not change.
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
stamp_write() { mkdir -p "$(dirname "$1")"; printf '%s' "$2" > "$1"; }
# The files git tracks that match a pathspec, as absolute paths in name order: tracked_files
# 'models/*/*.manifest.json'. For keys that must not see what later steps generate beside them.
tracked_files() {
  local top
  top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  git -C "$top" ls-files -z -- "$@" | sort -z | while IFS= read -r -d '' f; do printf '%s\n' "$top/$f"; done
}
# Every file under native/src (its rooms: binding, session, kernels, memory, faults), each path
# then its bytes, in name order: the addon's build keys (65-addon, arm64's 40-addon). Run from the
# repository root.
native_sources() {
  local f
  while IFS= read -r -d '' f; do printf '%s\n' "$f"; cat "$f"; done < <(find native/src -type f -print0 | sort -z)
}
# A model step that finds its output missing or its key changed calls this before rebuilding. A
# run that bootstraps again after its own first bootstrap (npm test's Jazzy and arm64 lanes) sets
# HTP_BOOTSTRAP_MODELS_FROZEN=1: a model made twice in one run means a step's key saw something
# the first bootstrap changed, so the step fails, naming itself, instead of quietly redoing minutes
# of quantization.
models_not_frozen() {
  [ "${HTP_BOOTSTRAP_MODELS_FROZEN:-}" = 1 ] || return 0
  die "$1: would be made again in a bootstrap that must rebuild no model (HTP_BOOTSTRAP_MODELS_FROZEN=1, set by scripts/test.sh after the run's first bootstrap): its key or outputs changed since; compare its key's inputs with what earlier steps write"
}
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
# Runs "$@" for at most LIMIT seconds: bounded LIMIT WHAT COMMAND... A suite whose process hangs
# (an emulated Node that aborted inside qemu-user once stayed up until CI's own 90-minute limit)
# then fails on its own, named, instead of taking the whole run with it. timeout signals the
# command's whole process group (TERM, KILL 30 s later), so ROS processes a test started stop too.
# Returns the command's status, 124 when it was stopped.
bounded() {
  local limit="$1" what="$2" rc=0 started=$SECONDS
  shift 2
  timeout --kill-after=30 "$limit" "$@" || rc=$?
  limit_status "$rc" "$limit" "$started" "$what"
}
# timeout's status as bounded returns it: limit_status RC LIMIT STARTED WHAT (STARTED: $SECONDS
# when the command started). 137 is also a process the kernel killed (out of memory) before the
# limit: passed on as it is.
limit_status() {
  local rc="$1" limit="$2" started="$3" what="$4"
  if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ $((SECONDS - started)) -ge "$limit" ]; }; then
    printf '[bootstrap] error: %s did not finish within %s s and was stopped\n' "$what" "$limit" >&2
    return 124
  fi
  return "$rc"
}
# bounded, and also stopped when it goes quiet: quiet_bounded LIMIT QUIET LOG WHAT COMMAND... runs
# COMMAND (whose output the caller sends to LOG) for at most LIMIT seconds, and stops it earlier
# when LOG has not grown for QUIET seconds: for a run that hangs rather than slows (mocha prints a
# line per test, so silence means no test is ending). COMMAND runs in a session of its own, so its
# whole process group is signalled (TERM, KILL 30 s later). Returns COMMAND's status, 124 when it
# was stopped. COMMAND must be a program, not a shell function.
quiet_bounded() {
  local limit="$1" quiet="$2" logf="$3" what="$4" rc=0 pid last size idle=0 started=$SECONDS
  shift 4
  # A background job of a script is not a group leader, so setsid makes it one without forking.
  setsid timeout --kill-after=30 "$limit" "$@" &
  pid=$!
  last=$(stat -c %s "$logf" 2>/dev/null || echo 0)
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    size=$(stat -c %s "$logf" 2>/dev/null || echo 0)
    if [ "$size" != "$last" ]; then
      last=$size
      idle=0
      continue
    fi
    idle=$((idle + 5))
    if [ "$idle" -ge "$quiet" ]; then
      printf '[bootstrap] error: %s printed nothing for %s s and was stopped\n' "$what" "$quiet" >&2
      kill -TERM -- "-$pid" 2>/dev/null || true
      for _ in 1 2 3 4 5 6; do kill -0 "$pid" 2>/dev/null || break; sleep 5; done
      kill -KILL -- "-$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      return 124
    fi
  done
  wait "$pid" || rc=$?
  limit_status "$rc" "$limit" "$started" "$what"
}
need_cmd() { command -v "$1" >/dev/null 2>&1 || die "'$1' is missing: $2"; }
# The QNN execution-provider plug-in (PyPI onnxruntime-qnn): bootstrap step 60 unpacks it for this
# machine, the arm64 lane (scripts/arm64.sh) its aarch64 build too; one version for both.
QNN_PKG="onnxruntime-qnn==2.7.0"
# Installs the Debian packages among "$@" that are not installed yet; needs root (or sudo).
apt_install_missing() {
  local missing=() p
  for p in "$@"; do
    [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == *"install ok installed"* ]] || missing+=("$p")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    log "apt: all $# packages present"
    return 0
  fi
  log "apt: installing ${missing[*]}"
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "installing ${missing[*]} needs root: run as root or install sudo"
    sudo_cmd=(sudo)
  fi
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Downloads a Debian package's .deb into DIR unless one is there (never installs it):
# download_deb DIR PACKAGE WHO (WHO names the step in the error).
download_deb() {
  local dir="$1" pkg="$2" who="$3"
  mkdir -p "$dir"
  if ! ls "$dir/${pkg}"_*.deb >/dev/null 2>&1; then
    # apt-get download writes into the current directory; _apt cannot write to a root-owned
    # folder, which only produces a harmless warning.
    (cd "$dir" && apt-get download "$pkg" >/dev/null 2>&1) || {
      (cd "$dir" && apt-get update -qq >/dev/null 2>&1 && apt-get download "$pkg" >/dev/null) ||
        die "$who: 'apt-get download $pkg' failed: run 'apt-get update' and check the Debian mirror"
    }
  fi
}
