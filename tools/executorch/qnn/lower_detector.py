"""Lower a trained Ultralytics detector to a QNN-delegated ExecuTorch program for the QCS6490's
HTP (QcomChipset.QCM6490, v68), quantized by ExecuTorch's QnnQuantizer (16-bit activations,
8-bit per-channel weights: the HTP's W8A16) and calibrated on local photos, then run it once on
the x86-64 HTP simulator through ExecuTorch's Python runtime against the float model.

The environment README.md describes (QNN_SDK_ROOT with the ABI shim, LD_LIBRARY_PATH) is needed:
without the shim, QNN 2.51 refuses the device ExecuTorch 1.5.1 creates (error 14001).

    env -u PYTHONPATH .cache/torch-venv/bin/python tools/executorch/qnn/lower_detector.py \
        PT OUT_DIR PHOTOS_DIR [--imgsz 640] [--calibrate N] [--no-run]

Writes OUT_DIR/<stem>_qnn.pte, OUT_DIR/metadata.yaml (Ultralytics' own fields, as its exporters
leave them beside a program: `htp-perception model import` reads the classes and the task there)
and OUT_DIR/report.json (times, delegate calls, and with the run the output's agreement on the
first photo).
"""
import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import torch


def letterbox(path: Path, size: int) -> torch.Tensor:
    """The node's own preprocessing: aspect kept, grey (114) padding centred, RGB 0..1, NCHW."""
    from PIL import Image

    img = Image.open(path).convert("RGB")
    scale = min(size / img.width, size / img.height)
    w, h = round(img.width * scale), round(img.height * scale)
    canvas = Image.new("RGB", (size, size), (114, 114, 114))
    canvas.paste(img.resize((w, h), Image.BILINEAR), ((size - w) // 2, (size - h) // 2))
    return torch.from_numpy(np.asarray(canvas, dtype=np.float32) / 255.0).permute(2, 0, 1)[None].contiguous()


def write_metadata(model: torch.nn.Module, pt: Path, imgsz: int, path: Path) -> None:
    import datetime

    import ultralytics
    import yaml

    fields = {
        "description": f"Ultralytics {pt.stem} model lowered to a QNN-delegated ExecuTorch program "
        "(htp_perception tools/executorch/qnn/lower_detector.py)",
        "author": "Ultralytics",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "version": ultralytics.__version__,
        "license": "AGPL-3.0 License (https://ultralytics.com/license)",
        "stride": int(max(model.stride)),
        "task": "detect",
        "batch": 1,
        "imgsz": [imgsz, imgsz],
        "names": {int(k): str(v) for k, v in model.names.items()},
        "channels": 3,
        "end2end": False,
    }
    path.write_text(yaml.safe_dump(fields, sort_keys=False))


def load_detector(pt: Path, tmp: str) -> torch.nn.Module:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_CONFIG_DIR", tmp)
    from ultralytics import YOLO
    from ultralytics.nn.modules import Detect

    work = Path(tmp) / pt.name
    shutil.copyfile(pt, work)
    model = YOLO(str(work)).model.float().fuse().eval()
    for m in model.modules():
        if isinstance(m, Detect):
            # What Ultralytics' exporters set: one (1, 4 + classes, anchors) tensor, boxes in pixels.
            m.export, m.format, m.dynamic = True, "executorch", False
    return model


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pt", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("photos", type=Path)
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--calibrate", type=int, default=13)
    ap.add_argument("--no-run", action="store_true")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    out = args.out_dir / f"{args.pt.stem}_qnn.pte"
    photos = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if not photos:
        raise SystemExit(f"no photos in {args.photos}")
    report: dict = {"soc": "QCM6490", "quant": "16a8w", "imgsz": args.imgsz}

    with tempfile.TemporaryDirectory(prefix="htp-qnn-lower-") as tmp:
        model = load_detector(args.pt, tmp)
    example = (letterbox(photos[0], args.imgsz),)
    with torch.no_grad():
        # A dry run, as Ultralytics' exporter does: Detect caches its anchors for this input size,
        # so they are constants of the graph instead of a meshgrid the partitioner cannot take.
        model(*example)

    from executorch.backends.qualcomm.quantizer.quantizer import QnnQuantizer, QuantDtype
    from executorch.backends.qualcomm.serialization.qc_schema import QcomChipset, QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.utils import (
        generate_htp_compiler_spec,
        generate_qnn_executorch_compiler_spec,
        get_qnn_context_binary_alignment,
        to_edge_transform_and_lower_to_qnn,
    )
    from executorch.exir.capture._config import ExecutorchBackendConfig
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    t0 = time.time()
    quantizer = QnnQuantizer(backend=QnnExecuTorchBackendType.kHtpBackend, soc_model=QcomChipset.QCM6490)
    quantizer.set_default_quant_config(QuantDtype.use_16a8w, is_conv_per_channel=True)
    graph = torch.export.export(model, example, strict=False).module()
    prepared = prepare_pt2e(graph, quantizer)
    with torch.no_grad():
        for p in photos[: args.calibrate]:
            prepared(letterbox(p, args.imgsz))
    quantized = convert_pt2e(prepared)
    report["quantize_s"] = round(time.time() - t0, 1)

    t0 = time.time()
    spec = generate_qnn_executorch_compiler_spec(
        soc_model=QcomChipset.QCM6490, backend_options=generate_htp_compiler_spec(use_fp16=False)
    )
    edge = to_edge_transform_and_lower_to_qnn(quantized, example, spec)
    graph_ops = [str(n.target) for n in edge.exported_program().graph_module.graph.nodes if n.op == "call_function"]
    report["lower_s"] = round(time.time() - t0, 1)
    report["delegate_calls"] = sum("executorch_call_delegate" in t for t in graph_ops)
    report["ops_outside_delegate"] = sorted(
        {t for t in graph_ops if "executorch_call_delegate" not in t and "getitem" not in t}
    )
    program = edge.to_executorch(config=ExecutorchBackendConfig(segment_alignment=get_qnn_context_binary_alignment()))
    with open(out, "wb") as f:
        program.write_to_file(f)
    write_metadata(model, args.pt, args.imgsz, args.out_dir / "metadata.yaml")
    report["program"] = str(out)
    report["program_bytes"] = out.stat().st_size
    print(json.dumps(report, indent=2), flush=True)

    if not args.no_run:
        from executorch.extension.pybindings import portable_lib

        t0 = time.time()
        got = portable_lib._load_for_executorch(str(out)).forward([example[0]])[0].float()
        report["simulator_s"] = round(time.time() - t0, 1)
        with torch.no_grad():
            want = model(*example)
            want = (want[0] if isinstance(want, (tuple, list)) else want).float()
            qdq = quantized(*example)
            qdq = (qdq[0] if isinstance(qdq, (tuple, list)) else qdq).float()
        report["output_shape"] = list(got.shape)
        # Class scores (rows 4..) are what detections are cut at; boxes (rows 0..3) are pixels.
        report["max_score_diff_vs_float"] = round((got[:, 4:] - want[:, 4:]).abs().max().item(), 4)
        report["max_score_diff_vs_qdq"] = round((got[:, 4:] - qdq[:, 4:]).abs().max().item(), 4)
        report["max_score_float"] = round(want[:, 4:].max().item(), 4)
        report["max_score_simulator"] = round(got[:, 4:].max().item(), 4)
    (args.out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
