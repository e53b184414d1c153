#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds, checks style, runs
# every test over real ROS 2, the real addon and the real models, then the engine tests again
# under AddressSanitizer, then the ROS suites against ROS 2 Jazzy (scripts/test-jazzy.sh), then
# the engine on linux-arm64 under emulation (scripts/arm64.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib.sh
bash scripts/bootstrap.sh
node_modules/.bin/eslint src test bench
# The layer table of docs/DESIGN.md as dependency-cruiser rules: an upward import fails here.
node_modules/.bin/depcruise src bench --config .dependency-cruiser.cjs --output-type err-long
node_modules/.bin/prettier --check "src/**/*.ts" "test/**/*.ts" "bench/**/*.ts" >/dev/null \
  || { node_modules/.bin/prettier --check "src/**/*.ts" "test/**/*.ts" "bench/**/*.ts"; exit 1; }
# The run's own temp folder: the mocha reporter fails the run naming whatever is left in it, and
# nothing the suite makes lands in the system temp directory.
export HTP_TEST_TMPDIR="$root/.cache/test-tmp"
rm -rf "$HTP_TEST_TMPDIR"
mkdir -p "$HTP_TEST_TMPDIR"
export TMPDIR="$HTP_TEST_TMPDIR"
# Fast DDS shared memory left by processes that died (a killed run) would be reused by this one.
bash scripts/with-env.sh fastdds shm clean >/dev/null 2>&1 || true
# Each suite has a time limit (bounded, scripts/lib.sh), far above its time here (about 11 min for
# this one on 2 cores), so a hung process fails its suite instead of the whole CI run.
bounded 2700 "the test suite (Kilted)" bash scripts/with-env.sh mocha --config .mocharc.json "dist/test/**/*.test.js" "dist/bench/test/**/*.test.js"
bash scripts/asan.sh
rm -rf "$HTP_TEST_TMPDIR"
bash scripts/test-jazzy.sh
bash scripts/arm64.sh
