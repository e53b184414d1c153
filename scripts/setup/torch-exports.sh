# Sourced by the steps that export the real yolov8s-fall.pt with Ultralytics' own exporters in the
# torch venv (76-executorch-programs, 77-ultralytics-qnn): what an export's stamp depends on, the
# export run, and the provenance the exported model takes from its ONNX twin. Needs lib.sh and
# $root.

# torch_export_key TOOL: the stamp key of an export by TOOL (its code and the torch venv's pins).
torch_export_key() {
  local torch="$root/tools/torch"
  echo "v1 $(cat "$1" "$torch/requirements-torch.txt" "$torch/requirements-torch-nodeps.txt" \
    "$torch/constraints-torch.txt" "$torch/ensure-torch-venv.sh" | sha256sum | cut -c1-16)"
}

# torch_export WHAT OUTPUT_LOG TOOL ARGS...: makes the torch venv (tools/torch/ensure-torch-venv.sh,
# which also fetches the checkpoint) and runs `TOOL CHECKPOINT ARGS...` with its Python, output in
# OUTPUT_LOG; on failure, dies with the log's tail. WHAT names the step in messages.
torch_export() {
  local what="$1" output_log="$2" tool="$3"
  shift 3
  local t0=$SECONDS setup py pt
  setup="$(bash "$root/tools/torch/ensure-torch-venv.sh")"
  py="$(sed -n 's/^python //p' <<<"$setup")"
  pt="$(sed -n 's/^pt //p' <<<"$setup")"
  log "$what: torch venv ready ($((SECONDS - t0)) s); exporting $pt"
  # The torch venv alone, not the ROS prefix's packages scripts/env.sh puts on PYTHONPATH.
  env -u PYTHONPATH -u PYTHONHOME "$py" "$tool" "$pt" "$@" >"$output_log" 2>&1 ||
    { tail -20 "$output_log" >&2; die "$what: the export failed ($output_log)"; }
}

# carry_twin_provenance MANIFEST TWIN DESCRIPTION [NOTES]: the exported model's provenance is its
# ONNX twin's (the same wheel and weights), with DESCRIPTION saying the export ("{version}" there
# becomes the exporter's version, as the import read it); NOTES, when given, replace its notes.
carry_twin_provenance() {
  node -e '
    const fs = require("fs");
    const [manifest, twin, description, notes] = process.argv.slice(1);
    const m = JSON.parse(fs.readFileSync(manifest, "utf8"));
    const p = JSON.parse(fs.readFileSync(twin, "utf8")).provenance;
    m.provenance = { ...p, description: description.replace("{version}", m.provenance.version) };
    if (notes) m.notes = notes;
    fs.writeFileSync(manifest, JSON.stringify(m, null, 2) + "\n");
  ' "$@"
}
