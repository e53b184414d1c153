#!/usr/bin/env bash
# Runs the engine tests (unit + integration) against an AddressSanitizer build of the addon, and
# the video addon's tests against an AddressSanitizer build of it.
# CI-runnable (about a minute), the last step of `npm test`. Exit code is non-zero on any ASan report.
#   bash scripts/asan.sh            build build/engine-asan and run the tests under ASan
# Leak checking is off: node/V8 keep allocations alive until exit by design, which LSan reports
# as leaks outside our code; use-after-free, overflows and double frees are all detected.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib.sh
HTP_ENGINE_ASAN=1 bash scripts/setup/65-addon.sh
HTP_VIDEO_ASAN=1 bash scripts/setup/66-video.sh
libasan="$(g++ -print-file-name=libasan.so)"
[ -f "$libasan" ] || die "asan: libasan.so not found (apt-get install libasan8 / g++)"
[ -d dist/test/integration/engine ] || node_modules/.bin/tsc -p tsconfig.json
# Outside the run's TMPDIR (npm test's .cache/test-tmp), where the mocha reporter counts a
# folder left behind as a test's leftover.
log_dir="$root/build/engine-asan/logs"
rm -rf "$log_dir"
mkdir -p "$log_dir"
status=0
# Node itself is not instrumented, so ASan must be preloaded; the child process spawned by a test
# inherits the same environment.
LD_PRELOAD="$libasan" \
ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1:log_path=$log_dir/asan:allow_user_segv_handler=1:handle_segv=0" \
HTP_ENGINE_ADDON="$root/build/engine-asan/Release/htp_engine.node" \
HTP_VIDEO_ADDON="$root/build/video-asan/Release/htp_video.node" \
  bounded 1200 "asan: the engine and video tests" node_modules/.bin/mocha --config .mocharc.json \
  "dist/test/unit/engine/**/*.test.js" "dist/test/integration/engine/**/*.test.js" \
  "dist/test/integration/video/**/*.test.js" || status=$?
if compgen -G "$log_dir/asan*" >/dev/null; then
  cat "$log_dir"/asan* >&2
  die "asan: AddressSanitizer reported errors (above)"
fi
[ "$status" = 0 ] || die "asan: tests failed under ASan (exit $status)"
log "asan: engine and video tests clean under AddressSanitizer"
