#!/usr/bin/env bash
# What the Ultralytics side of `npm run bench:e2e` needs: the torch venv and yolov8s-fall.pt that
# bootstrap step 76 also uses (tools/torch/ensure-torch-venv.sh; made there when missing).
# Prints "python PATH" and "pt PATH" as its last two lines of stdout.
set -euo pipefail
exec bash "$(cd "$(dirname "$0")/../.." && pwd)/tools/torch/ensure-torch-venv.sh"
