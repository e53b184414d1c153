#!/usr/bin/env bash
# The engine tests on linux-arm64, proven on this x86-64 machine under emulation
# (`npm run test:arm64`, the last step of `npm test`). From a fresh clone: bootstraps what the
# host needs (node_modules, dist/, the tools venv for the references, the x86-64 addon the arm64
# results are compared with), installs the cross compiler, qemu-user and proot, fetches an aarch64
# Node and the aarch64 QNN libraries, cross-compiles the addon, then runs with mocha on the
# aarch64 Node:
#   - the engine suite (the files scripts/asan.sh runs), same tolerances as on x86-64, and the
#     heads' unit tests (pure TypeScript, but arm64's V8 does the maths);
#   - test/arm64/*.arm64.ts, this lane's own: preprocessing bit-identical to x86-64, an HTP
#     session refused with the missing device pieces named, doctor on the aarch64 library layout.
# Idempotent; everything it fetches or builds stays in the clone (.cache/arm64, build/engine-arm64).
# How the emulation works and what it leaves out: docs/development.md, "The arm64 lane".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib.sh
started=$(date +%s)
# 20-ros .. 50-rclnodejs: tsc compiles src/ against rclnodejs' generated message typings.
bash scripts/bootstrap.sh 10-apt 20-ros 25-pytools 30-interfaces 40-npm 50-rclnodejs 60-onnxruntime 65-addon 68-typescript
for step in scripts/arm64/setup/*.sh; do
  step_started=$(date +%s)
  bash "$step"
  log "arm64 step $(basename "$step" .sh) done in $(( $(date +%s) - step_started )) s"
done
# QNN's HTP simulator is an x86-64 library: the simulator block of htpProvider.test.ts is not
# registered on arm64 (test/arm64/htpWithoutDsp.arm64.ts covers the HTP on this machine instead).
log "arm64: not run here: 'EngineSession provider htp (QNN plug-in) on this machine (HTP simulator)', 6 tests (x86-64 only: QNN's HTP simulator)"
# The run's own temp folder, as in scripts/test.sh: the reporter fails the run on leftovers.
export HTP_TEST_TMPDIR="$root/.cache/test-tmp-arm64"
rm -rf "$HTP_TEST_TMPDIR"
mkdir -p "$HTP_TEST_TMPDIR"
export TMPDIR="$HTP_TEST_TMPDIR"
tests_started=$(date +%s)
# The x86-64 side of the bit-identity test, run here natively with the host addon (build/engine):
# Debian's proot 5.1.0 traces an x86-64 Node unreliably once its worker threads have run.
export HTP_TEST_X64_PREPROCESS="$root/.cache/arm64/x64-preprocess.json"
rm -f "$HTP_TEST_X64_PREPROCESS"
node dist/test/arm64/preprocessOutputs.js "$HTP_TEST_X64_PREPROCESS" \
  || die "arm64: the x86-64 preprocessing outputs could not be computed"
# Read by test/arm64/*: this is the lane (arm64 emulated, no Hexagon DSP).
export HTP_TEST_ARM64_LANE=1
run_log="$root/.cache/arm64/tests.log"
# Every engine test but the 10,000 damaged ExecuTorch programs: ExecuTorch's verifier is the same
# code on both architectures, and under emulation they would take minutes; the asan lane runs them.
# A whole run takes about a minute here and no test more than 15 s under emulation: a run that
# prints nothing for 4 minutes has hung, and is stopped then rather than at the 15-minute limit.
run_tests() {
  : >"$run_log"
  quiet_bounded 900 240 "$run_log" "arm64: the tests under emulation" \
    bash scripts/arm64/emulate.sh node \
    node_modules/mocha/bin/mocha.js --config .mocharc.json \
    --ignore "dist/test/integration/engine/hostilePrograms.property.test.js" \
    "dist/test/unit/engine/**/*.test.js" "dist/test/integration/engine/**/*.test.js" \
    "dist/test/unit/heads/**/*.test.js" "dist/test/unit/families/**/*.test.js" \
    "dist/test/arm64/**/*.arm64.js" 2>&1 | tee -a "$run_log"
}
# The emulated Node dying or hanging before mocha's summary (in CI, once glibc's heap check
# aborting it inside qemu-user, once every thread stuck on a futex) is not a test failing: the
# tests run again, up to three runs in all, and a third death fails the lane. A run that ends with
# its summary, failures or not, is final. Not reproduced here since (docs/development.md, "The
# arm64 lane"); the same engine tests run natively under AddressSanitizer (scripts/asan.sh), where
# our own memory errors show.
# A run is final when mocha printed its summary, whatever its exit status: a run without one died
# or hung even when it exited 0 (in CI, proot once returned 0 after qemu-user reported the
# emulated Node's segmentation fault, and the lane passed on half its tests).
attempt=1
while :; do
  status=0
  run_tests || status=$?
  if grep -Eq '^[0-9]+ passed, [0-9]+ failed' "$run_log" || [ "$attempt" = 3 ]; then
    break
  fi
  log "arm64: the emulated Node died or hung (exit $status, output above) before the summary: running the tests again (run $((attempt + 1)) of 3)"
  cp "$run_log" "$run_log.$attempt"
  rm -rf "$HTP_TEST_TMPDIR"
  mkdir -p "$HTP_TEST_TMPDIR"
  attempt=$((attempt + 1))
done
grep -Eq '^[0-9]+ passed, 0 failed' "$run_log" ||
  die "arm64: the tests failed under emulation, or died before their summary three times (exit $status)"
[ "$status" = 0 ] || die "arm64: the tests failed under emulation (exit $status)"
rm -rf "$HTP_TEST_TMPDIR"
now=$(date +%s)
log "arm64: tests in $((now - tests_started)) s, whole lane in $((now - started)) s"
