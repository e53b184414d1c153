#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds, checks style, runs
# every test over real ROS 2, the real addon and the real models, then the engine tests again
# under AddressSanitizer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh
node_modules/.bin/eslint src test
node_modules/.bin/prettier --check "src/**/*.ts" "test/**/*.ts" >/dev/null \
  || { node_modules/.bin/prettier --check "src/**/*.ts" "test/**/*.ts"; exit 1; }
bash scripts/with-env.sh mocha --config .mocharc.json "dist/test/**/*.test.js"
bash scripts/asan.sh
