#!/usr/bin/env bash
# A trained detector as a QNN-delegated ExecuTorch program for the QCS6490's HTP: the real
# yolov8s-fall.pt lowered by ExecuTorch 1.5.1's own QNN flow (QnnQuantizer W8A16, calibrated on the
# photos of step 15; QcomChipset.QCM6490, Hexagon v68) in the torch venv, against the QNN 2.51
# libraries of its onnxruntime-qnn wheel. ExecuTorch's QNN side was built with QNN 2.37, whose HTP
# device settings QNN 2.51 reads elsewhere: both the lowering and the runtime backend need the ABI
# shim of tools/executorch/qnn/ (README.md there), laid out here as a QNN_SDK_ROOT:
#   .cache/executorch-qnn/qnn-sdk/lib/x86_64-linux-clang   the wheel's QNN libraries, the shim
#   .cache/executorch-qnn/yolov8s-fall_qnn.pte              the program (~12 MB, ~90 s to make)
#   .cache/executorch-qnn/yolov8s-fall-executorch-qnn.manifest.json   `model import`'s manifest
# Not a model under models/ (the nodes' and the install space's): without the shim, as a user of the
# wheels would run it, QNN refuses it (the node names why); with the shim it runs on the x86-64 HTP
# simulator (~25 s a frame). test/integration/engine/executorchQnn.test.ts holds it to its ONNX twin.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/torch-exports.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/.cache/executorch-qnn"
name=yolov8s-fall-executorch-qnn
program="$out/yolov8s-fall_qnn.pte"
stamp="$root/.cache/stamps/executorch-qnn"
cli="$root/dist/src/cli/main.js"
[ -f "$cli" ] || die "executorch-qnn: dist/ missing: run scripts/setup/68-typescript.sh first"
[ -d "$root/.cache/photos" ] || die "executorch-qnn: .cache/photos missing: run scripts/setup/15-photos.sh first"
need_cmd gcc "apt-get install gcc"
tools="$root/tools/executorch/qnn"
bash "$root/tools/torch/ensure-torch-venv.sh" >/dev/null
qnn_libs="$(ls -d "$root"/.cache/torch-venv/lib/python3*/site-packages/onnxruntime_qnn)"
# The shim: a second to build, so each time (it names the wheel's library by its path).
bash "$tools/make_sdk_root.sh" "$qnn_libs" "$out/qnn-sdk" || die "executorch-qnn: the ABI shim did not build"
key="$(torch_export_key "$tools/lower_detector.py") $(sha256sum "$tools/abi_shim.c" | cut -c1-16)"
if ! { stamp_ok "$stamp" "$key" && [ -f "$program" ] && [ -f "$out/metadata.yaml" ]; }; then
  models_not_frozen "executorch-qnn (scripts/setup/78-executorch-qnn.sh)"
  t0=$SECONDS
  rm -f "$program" "$out/metadata.yaml"
  QNN_SDK_ROOT="$out/qnn-sdk" LD_LIBRARY_PATH="$out/qnn-sdk/lib/x86_64-linux-clang" \
    torch_export executorch-qnn "$out/lower.log" "$tools/lower_detector.py" "$out" "$root/.cache/photos" --no-run
  stamp_write "$stamp" "$key"
  log "executorch-qnn: lowered $program ($(du -h "$program" | cut -f1), $((SECONDS - t0)) s)"
fi
node "$cli" model import "$program" --name "$name" --force >/dev/null ||
  die "executorch-qnn: model import $program failed"
carry_twin_provenance "$out/$name.manifest.json" "$root/models/yolov8-fall/yolov8s-fall.manifest.json" \
  "fall_detection/models/best.pt from the wheel, (Ultralytics {version}) lowered to an ExecuTorch program delegated to QNN by ExecuTorch's own QNN flow (QnnQuantizer W8A16, QCM6490 / Hexagon v68; ExecuTorch and onnxruntime-qnn pinned in tools/torch/, QNN 2.51 through the ABI shim of tools/executorch/qnn/) in bootstrap step 78; the same weights as the yolov8s-fall ONNX model." \
  "Real weights (classes Normal and Fall) as a QNN-delegated ExecuTorch program: runs on the HTP (the x86-64 simulator here, with the ABI shim on LD_LIBRARY_PATH)."
log "executorch-qnn: $name in $out"
