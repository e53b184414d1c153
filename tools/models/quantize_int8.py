"""INT8 QDQ quantization of an ONNX model with ONNX Runtime's static quantizer, calibrated on the
real photos (letterboxed exactly as at inference). QDQ is the format the QNN HTP provider takes:
activations uint8 asymmetric, weights int8 symmetric per channel.

usage: quantize_int8.py <fp32.onnx> <int8.onnx> <photos dir> [--size 640]
"""
from __future__ import annotations

import argparse
import pathlib

import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

from common import letterbox, list_photos, read_rgb, to_nchw_float


class PhotoReader(CalibrationDataReader):
    def __init__(self, input_name: str, photos: list[pathlib.Path], size: int):
        self._items = iter(
            [{input_name: to_nchw_float(letterbox(read_rgb(p), size)[0])} for p in photos]
        )

    def get_next(self):
        return next(self._items, None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("fp32")
    ap.add_argument("int8")
    ap.add_argument("photos")
    ap.add_argument("--size", type=int, default=640)
    ap.add_argument("--float-tail", default="/model.22/",
                    help="keep non-Conv nodes under this name prefix in float (box decode + final concat)")
    a = ap.parse_args()
    src = pathlib.Path(a.fp32)
    pre = src.with_suffix(".pre.onnx")
    quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
    graph = onnx.load(str(pre), load_external_data=False).graph
    input_name = graph.input[0].name
    # The packed output concatenates boxes (0..640) with scores (0..1): one uint8 scale for both
    # would erase every score, so the decode tail stays float and only the convolutions before it
    # are quantized.
    exclude = [n.name for n in graph.node if a.float_tail and n.name.startswith(a.float_tail) and n.op_type != "Conv"]
    quantize_static(
        str(pre),
        a.int8,
        PhotoReader(input_name, list_photos(pathlib.Path(a.photos)), a.size),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        nodes_to_exclude=exclude,
    )
    pre.unlink()
    print(f"quantized {src.name} -> {a.int8} ({len(exclude)} tail nodes kept float)")


if __name__ == "__main__":
    main()
