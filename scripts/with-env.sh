#!/usr/bin/env bash
# Runs a command inside the project's ROS 2 environment: scripts/with-env.sh <cmd> [args...]
set -euo pipefail
# shellcheck source=scripts/env.sh
source "$(dirname "$0")/env.sh"
export PATH="$HTP_ROOT/node_modules/.bin:$PATH"
exec "$@"
