#!/usr/bin/env bash
# ExecuTorch's aarch64 runtime (the same pinned release as bootstrap step 62, from its
# manylinux_2_28_aarch64 wheel: runtime, kernels, XNNPACK; no QNN backend) into
# .cache/executorch/aarch64, for the cross-compiled ExecuTorch plug-in of 40-addon.
set -euo pipefail
exec bash "$(cd "$(dirname "$0")/../../.." && pwd)/scripts/setup/62-executorch.sh" aarch64
