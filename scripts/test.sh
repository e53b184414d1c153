#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds, runs every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh
bash scripts/with-env.sh mocha --config .mocharc.json "dist/test/**/*.test.js"
