#!/usr/bin/env bash
# The test suite in lanes, from a fresh clone: installs what is missing (bootstrap), then runs the
# lanes named, or all of them in this order, over real ROS 2, the real addon and the real models.
#   scripts/test.sh               every lane (npm test, CI's .ci/run)
#   scripts/test.sh unit ros      only those lanes (npm run test:unit, test:ros, ...)
# Lanes (docs/development.md):
#   lint     eslint, the layer table (dependency-cruiser), prettier
#   unit     test/unit: pure logic, the addon's boundary, property suites (no ROS processes)
#   engine   test/integration/engine: the addon's sessions, preprocessing, kernels, the HTP simulator; test/integration/video: the video addon (H.264)
#   models   test/integration/models: every shipped model through ModelPipeline on real photos
#   cli      test/integration/cli: htp-perception import, quantize, compile, doctor, --help
#   ros      test/integration/ros and lifecycle: nodes and containers over DDS
#   install  test/integration/colcon, install, launch: colcon build, the install space, launch files
#   bench    bench/test: the benchmarks' pure parts and smoke runs
#   asan     the engine's and the video addon's tests again on AddressSanitizer builds (scripts/asan.sh)
#   jazzy    the ROS lanes against ROS 2 Jazzy (scripts/test-jazzy.sh)
#   arm64    the engine on linux-arm64 under emulation (scripts/arm64.sh)
# Every lane runs even when an earlier one failed; the run ends with a table of each lane's result,
# tests and time, and fails if any lane failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib.sh

ALL_LANES=(lint unit engine models cli ros install bench asan jazzy arm64)
lanes=("$@")
((${#lanes[@]} > 0)) || lanes=("${ALL_LANES[@]}")
for lane in "${lanes[@]}"; do
  [[ " ${ALL_LANES[*]} " == *" $lane "* ]] || die "test: no lane '$lane' (lanes: ${ALL_LANES[*]})"
done

run_started=$SECONDS
bash scripts/bootstrap.sh
bootstrap_s=$((SECONDS - run_started))
# Lanes that bootstrap again in another environment (Jazzy's, arm64's) must find every model as the
# bootstrap above left it: a model step that would rebuild fails instead (scripts/lib.sh).
export HTP_BOOTSTRAP_MODELS_FROZEN=1

lane_logs="$root/.cache/test-lanes"
rm -rf "$lane_logs"
mkdir -p "$lane_logs"
# The run's own temp folder: the mocha reporter fails a lane naming whatever is left in it, and
# nothing the suite makes lands in the system temp directory. Made afresh for each lane.
export HTP_TEST_TMPDIR="$root/.cache/test-tmp"
fresh_tmpdir() {
  rm -rf "$HTP_TEST_TMPDIR"
  mkdir -p "$HTP_TEST_TMPDIR"
  export TMPDIR="$HTP_TEST_TMPDIR"
}

# mocha_lane LIMIT GLOB...: one mocha process over the lane's compiled tests. Each lane has a time
# limit (bounded, scripts/lib.sh) far above its time here, so a hung process fails its lane only.
mocha_lane() {
  local limit="$1"
  shift
  fresh_tmpdir
  bounded "$limit" "lane $lane" bash scripts/with-env.sh mocha --config .mocharc.json "$@"
}

run_lane() {
  case "$1" in
    lint)
      node_modules/.bin/eslint src test bench &&
        node_modules/.bin/depcruise src bench --config .dependency-cruiser.cjs --output-type err-long &&
        node_modules/.bin/prettier --check "src/**/*.ts" "test/**/*.ts" "bench/**/*.ts"
      ;;
    unit) mocha_lane 900 "dist/test/unit/**/*.test.js" ;;
    engine) mocha_lane 900 "dist/test/integration/engine/**/*.test.js" "dist/test/integration/video/**/*.test.js" ;;
    models) mocha_lane 1500 "dist/test/integration/models/**/*.test.js" ;;
    cli) mocha_lane 1500 "dist/test/integration/cli/**/*.test.js" ;;
    ros)
      # Fast DDS shared memory left by processes that died (a killed run) would be reused.
      bash scripts/with-env.sh fastdds shm clean >/dev/null 2>&1 || true
      mocha_lane 2400 "dist/test/integration/ros/**/*.test.js" "dist/test/integration/lifecycle/**/*.test.js"
      ;;
    install)
      mocha_lane 1800 "dist/test/integration/colcon/**/*.test.js" \
        "dist/test/integration/install/**/*.test.js" "dist/test/integration/launch/**/*.test.js"
      ;;
    bench) mocha_lane 1200 "dist/bench/test/**/*.test.js" ;;
    asan) fresh_tmpdir && bash scripts/asan.sh ;;
    # From a shell with scripts/env.sh sourced, as a developer's is (Kilted on PATH, LD_LIBRARY_PATH,
    # PYTHONPATH): test-jazzy.sh's own cleaning and the Jazzy prefix install run against what they
    # must clean, every run, and test-jazzy.sh checks that nothing of Kilted is left.
    jazzy) bash -c 'source scripts/env.sh && exec bash scripts/test-jazzy.sh' ;;
    arm64) bash scripts/arm64.sh ;;
  esac
}

# The last "N passed, N failed[, N pending]" line a lane printed (the mocha reporter's summary).
lane_counts() {
  grep -aEo '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ pending)?' "$1" | tail -1 || true
}

failed=0
rows=()
for lane in "${lanes[@]}"; do
  log "lane $lane"
  started=$SECONDS
  status=0
  run_lane "$lane" 2>&1 | tee "$lane_logs/$lane.log" || status=$?
  seconds=$((SECONDS - started))
  result=passed
  [ "$status" = 0 ] || { result="FAILED ($status)"; failed=1; }
  rows+=("$(printf '| %-9s | %-10s | %-30s | %5d |' "$lane" "$result" "$(lane_counts "$lane_logs/$lane.log")" "$seconds")")
  log "lane $lane: $result in $seconds s"
done
rm -rf "$HTP_TEST_TMPDIR"

# What failed, repeated just above the table: CI keeps only the tail of a run's output, where a
# failure reported minutes earlier in a long lane would otherwise be lost. Mocha's "N failing"
# section when there is one (titles, messages, first stack lines), else the lane's last lines.
failure_excerpt() {
  local log_file="$1"
  if grep -aqE '^ +[0-9]+ failing$' "$log_file"; then
    sed -n '/^ \+[0-9]\+ failing$/,$p' "$log_file" | grep -av '^ \+at .*node_modules' | head -n 80 || true
  else
    tail -n 25 "$log_file"
  fi
}
for lane in "${lanes[@]}"; do
  row=$(printf '%s\n' "${rows[@]}" | grep -E "^\| $lane +\| FAILED" || true)
  [ -n "$row" ] || continue
  printf '\n=== lane %s failed; from %s:\n' "$lane" "$lane_logs/$lane.log"
  failure_excerpt "$lane_logs/$lane.log"
done

{
  printf '\n| %-9s | %-10s | %-30s | %5s |\n' lane result tests s
  printf '|-----------|------------|--------------------------------|-------|\n'
  printf '| %-9s | %-10s | %-30s | %5d |\n' bootstrap done "" "$bootstrap_s"
  printf '%s\n' "${rows[@]}"
  printf '| %-9s | %-10s | %-30s | %5d |\n' total "$([ "$failed" = 0 ] && echo passed || echo FAILED)" "" $((SECONDS - run_started))
  printf '(lane logs: %s; the CPU: %s)\n' "$lane_logs" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
} | tee "$lane_logs/summary.md"
exit "$failed"
