"""Quantizes a trained Ultralytics detector to an INT8 ExecuTorch program for the CPU (XNNPACK),
with ExecuTorch's own PT2E flow: XNNPACKQuantizer (symmetric int8 activations, per-channel int8
weights), calibrated on local photos, lowered with the XNNPACK partitioner (bootstrap step 76).

    .cache/torch-venv/bin/python tools/executorch/quantize_detector_program.py PT OUT.pte PHOTOS_DIR [IMGSZ]

Why the head's decode stays float: the detector's last operation concatenates boxes in pixels
(0..640) and class scores (0..1) into one tensor; XNNPACK's quantizer gives that tensor one scale,
2.5 px a step, and every score rounds to 0. The decode (the distribution-to-box layer, the box
arithmetic, the sigmoid, the concatenations: everything the head module computes itself, not its
convolutions) keeps float, as `model quantize` keeps the same nodes float in the INT8 ONNX model.

Calibration takes the photos `model quantize` would (name order, every 4th held out), so
`htp-perception model quantize NAME --validate-only` validates on photos the ranges were not fitted to.
"""
import sys
import tempfile
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent / "qnn"))
from lower_detector import letterbox, load_detector  # noqa: E402

HOLDOUT_EVERY = 4


def calibration_photos(folder: Path) -> list:
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    chosen = [p for i, p in enumerate(photos) if i % HOLDOUT_EVERY != HOLDOUT_EVERY - 1]
    if not chosen:
        sys.exit(f"no calibration photos in {folder}")
    return chosen


def float_decode_quantizer(head_fqn: str):
    """XNNPACK's annotations, less those of the head module's own operations and its DFL layer."""
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from torchao.quantization.pt2e.quantizer import Quantizer

    inner = XNNPACKQuantizer()
    inner.set_global(get_symmetric_quantization_config(is_per_channel=True))

    class FloatDecode(Quantizer):
        def transform_for_annotation(self, model):
            return inner.transform_for_annotation(model)

        def annotate(self, model):
            inner.annotate(model)
            for node in model.graph.nodes:
                stack = node.meta.get("nn_module_stack")
                if not stack:
                    continue
                owner = list(stack.values())[-1][0]
                if owner == head_fqn or owner.startswith(head_fqn + ".dfl"):
                    node.meta.pop("quantization_annotation", None)
            return model

        def validate(self, model):
            inner.validate(model)

    return FloatDecode()


def main(pt: Path, out: Path, photos: Path, imgsz: int) -> None:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    chosen = calibration_photos(photos)
    with tempfile.TemporaryDirectory(prefix="htp-int8-program-") as tmp:
        model = load_detector(pt, tmp)
        example = (letterbox(chosen[0], imgsz),)
        graph = torch.export.export(model, example, strict=False).module()
        prepared = prepare_pt2e(graph, float_decode_quantizer(f"model.{len(model.model) - 1}"))
        with torch.no_grad():
            for photo in chosen:
                prepared(letterbox(photo, imgsz))
        quantized = convert_pt2e(prepared)
        program = to_edge_transform_and_lower(
            torch.export.export(quantized, example, strict=False), partitioner=[XnnpackPartitioner()]
        ).to_executorch()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(program.buffer)
    print(f"calibrated on {len(chosen)} photos of {photos}; wrote {out} ({len(program.buffer)} bytes)")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) == 5 else 640)
