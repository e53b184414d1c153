#!/usr/bin/env bash
# Compiles the TypeScript (src/, test/ and the bench/ workspace, which references the root project)
# into dist/. Always runs: tsc is incremental enough and
# a stale dist/ would test old code. Runs before 70-models, which quantizes with the compiled
# `htp-perception model quantize`.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
rm -rf dist
node_modules/.bin/tsc -b bench || die "TypeScript compilation failed"
log "typescript: compiled into dist/ (src/ and test/ as dist/src, dist/test; the bench/ workspace as dist/bench)"
