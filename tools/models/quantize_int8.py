"""INT8 QDQ quantization of a manifest's fp32 model into its files.int8, with ONNX Runtime's static
quantizer, calibrated on the real photos pre-processed exactly as the manifest says (letterbox or
stretch, colour order, normalization). QDQ is the format the QNN HTP provider takes: activations
uint8 asymmetric, weights int8 symmetric per channel.

usage: quantize_int8.py <manifest.json> <photo dir or file>... [--output FILE]

`htp-perception model quantize` drives this script (the static quantizer is Python-only) and then
validates the result with the project's own engine; call it directly only to debug a failure.
The model is written to --output (default: the manifest's files.int8).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import tempfile

import cv2
import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

from common import letterbox, list_photos, read_rgb


def preprocess(rgb: np.ndarray, inp: dict) -> np.ndarray:
    w, h = inp["width"], inp["height"]
    if inp["resize"]["mode"] == "letterbox":
        assert w == h, "letterbox calibration expects a square input"
        img = letterbox(rgb, w, inp["resize"]["padValue"])[0]
    else:
        img = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_LINEAR)
    if inp["colorOrder"] == "bgr":
        img = img[..., ::-1]
    n = inp["normalization"]
    x = (img.astype(np.float32) * n["scale"] - np.array(n["mean"], np.float32)) / np.array(n["std"], np.float32)
    x = x[None]
    if inp["layout"] == "NCHW":
        x = x.transpose(0, 3, 1, 2)
    return np.ascontiguousarray(x, dtype=np.float32)


def decode_tail(graph: onnx.GraphProto, output: str) -> list[str]:
    """Names of the non-Conv nodes reachable backwards from `output` without crossing a Conv."""
    producer = {o: n for n in graph.node for o in n.output}
    seen: set[str] = set()
    todo = [output]
    while todo:
        n = producer.get(todo.pop())
        if n is None or n.op_type == "Conv" or n.name in seen:
            continue
        seen.add(n.name)
        todo.extend(i for i in n.input if i)
    return sorted(seen)


class PhotoReader(CalibrationDataReader):
    def __init__(self, inp: dict, photos: list[pathlib.Path]):
        self._items = iter([{inp["name"]: preprocess(read_rgb(p), inp)} for p in photos])

    def get_next(self):
        return next(self._items, None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("manifest")
    ap.add_argument("photos", nargs="+", help="folders of photos and/or photo files")
    ap.add_argument("--output", help="where to write the INT8 model (default: files.int8)")
    a = ap.parse_args()
    mpath = pathlib.Path(a.manifest)
    manifest = json.loads(mpath.read_text())
    src = mpath.parent / manifest["files"]["fp32"]
    dst = pathlib.Path(a.output) if a.output else mpath.parent / manifest["files"]["int8"]
    photos: list[pathlib.Path] = []
    for p in map(pathlib.Path, a.photos):
        photos.extend(list_photos(p) if p.is_dir() else [p])
    # The pre-processed copy goes to a temporary folder: the model folder may be read-only or shared.
    tmp = tempfile.TemporaryDirectory(prefix="quantize-int8-")
    pre = pathlib.Path(tmp.name) / "model.pre.onnx"
    quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
    graph = onnx.load(str(pre), load_external_data=False).graph
    # Ultralytics' packed output concatenates boxes (0..640) with scores (0..1): one uint8 scale
    # for both would erase every score, so the decode tail (every node between the last
    # convolutions and that output) stays float and only the convolutions are quantized.
    exclude: list[str] = []
    if manifest["outputs"]["format"] == "ultralytics-packed":
        exclude = decode_tail(graph, manifest["outputs"]["predictions"]["name"])
    quantize_static(
        str(pre),
        str(dst),
        PhotoReader(manifest["input"], photos),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        nodes_to_exclude=exclude,
    )
    tmp.cleanup()
    print(f"quantized {src.name} on {len(photos)} photos ({len(exclude)} decode nodes kept float)")


if __name__ == "__main__":
    main()
