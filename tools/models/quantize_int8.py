"""QDQ quantization of a manifest's fp32 model into its files.int8 (W8A8) or files.w8a16, with ONNX
Runtime's static quantizer, calibrated on the real photos pre-processed exactly as the manifest
says (letterbox or stretch, colour order, normalization). QDQ is the format the QNN HTP provider
takes: weights int8 symmetric per channel; activations uint8 asymmetric (int8), or uint16
asymmetric (w8a16: the HTP's 16-bit activations, as Ultralytics' format=qnn export makes them; 16-bit
QuantizeLinear / DequantizeLinear are com.microsoft's below opset 21, which the CPU and QNN providers
both run).

usage: quantize_int8.py <manifest.json> <photo dir or file>... [--output FILE] [--precision int8|w8a16]

`htp-perception model quantize` drives this script (the static quantizer is Python-only) and then
validates the result with the project's own engine; call it directly only to debug a failure.
The model is written to --output (default: the manifest's files.int8 or files.w8a16).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import tempfile

import cv2
import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static
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
    if inp["dtype"] == "uint8":
        # A byte input (MoveNet's RGB 0..255) gets the values its quantization gives them.
        q = inp.get("quantization", {"scale": 1, "zeroPoint": 0})
        return np.ascontiguousarray(np.clip(np.round(x / q["scale"] + q["zeroPoint"]), 0, 255), dtype=np.uint8)
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


def head_layer(graph: onnx.GraphProto, output: str) -> list[str]:
    """The decode tail of `output` and the Conv (or Gemm / MatMul) that feeds it: the last layer."""
    producer = {o: n for n in graph.node for o in n.output}
    tail = decode_tail(graph, output)
    layers = {n.name: n for n in graph.node}
    last = set()
    for name in tail or []:
        for i in layers[name].input:
            n = producer.get(i)
            if n is not None and n.op_type in ("Conv", "Gemm", "MatMul"):
                last.add(n.name)
    n = producer.get(output)
    if n is not None and n.op_type in ("Conv", "Gemm", "MatMul"):
        last.add(n.name)
    return sorted(set(tail) | last)


def conv_as_gemm(model: onnx.ModelProto, name: str) -> list[str] | None:
    """Rewrites Conv `name` as Flatten + Gemm + Reshape when its kernel covers its whole input
    (no padding, stride 1: a fully connected layer), returning the new nodes' names. A float Conv
    left beside an HTP partition breaks ONNX Runtime's NHWC layout pass for the QNN provider
    ("inserted using the NHWC format ... but was not selected by that EP"); a Gemm is not
    transposed, so the layer can stay float on the CPU. None when the Conv is not of that kind."""
    from onnx import numpy_helper, shape_inference

    g = model.graph
    node = next((n for n in g.node if n.name == name and n.op_type == "Conv"), None)
    if node is None:
        return None
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in shape_inference.infer_shapes(model).graph.value_info}
    init = {i.name: i for i in g.initializer}
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    x_shape = shapes.get(node.input[0])
    if node.input[1] not in init or x_shape is None or len(x_shape) != 4:
        return None
    w = numpy_helper.to_array(init[node.input[1]])
    if (list(w.shape[2:]) != x_shape[2:] or any(attrs.get("pads", [0])) or attrs.get("group", 1) != 1
            or attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", b"VALID", "NOTSET", "VALID")):
        return None
    out = node.output[0]
    wname, flat, mm, shape_name = f"{name}_gemm_w", f"{name}_flat", f"{name}_gemm", f"{name}_shape"
    g.initializer.append(numpy_helper.from_array(w.reshape(w.shape[0], -1), wname))
    g.initializer.append(numpy_helper.from_array(np.array([1, w.shape[0], 1, 1], np.int64), shape_name))
    inputs = [flat, wname] + ([node.input[2]] if len(node.input) > 2 else [])
    new = [
        onnx.helper.make_node("Flatten", [node.input[0]], [flat], name=f"{name}/flatten", axis=1),
        onnx.helper.make_node("Gemm", inputs, [mm], name=f"{name}/gemm", transB=1),
        onnx.helper.make_node("Reshape", [mm, shape_name], [out], name=f"{name}/reshape"),
    ]
    i = list(g.node).index(node)
    g.node.remove(node)
    for k, n in enumerate(new):
        g.node.insert(i + k, n)
    return [n.name for n in new]


class PhotoReader(CalibrationDataReader):
    def __init__(self, inp: dict, photos: list[pathlib.Path]):
        self._items = iter([{inp["name"]: preprocess(read_rgb(p), inp)} for p in photos])

    def get_next(self):
        return next(self._items, None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("manifest")
    ap.add_argument("photos", nargs="+", help="folders of photos and/or photo files")
    ap.add_argument("--output", help="where to write the model (default: files.<precision>)")
    ap.add_argument("--precision", choices=("int8", "w8a16"), default="int8")
    a = ap.parse_args()
    mpath = pathlib.Path(a.manifest)
    manifest = json.loads(mpath.read_text())
    src = mpath.parent / manifest["files"]["fp32"]
    dst = pathlib.Path(a.output) if a.output else mpath.parent / manifest["files"][a.precision]
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
    # convolutions and that output) stays float and only the convolutions are quantized. An
    # end-to-end export's tail is the same decode followed by its NMS (score threshold, boxes
    # offset by class, NonMaxSuppression, the zero-padded rows), which keeps float with it.
    exclude: list[str] = []
    if manifest["outputs"]["format"] in ("ultralytics-packed", "ultralytics-end2end"):
        exclude = decode_tail(graph, manifest["outputs"]["predictions"]["name"])
    # BlazePose's landmark tensor holds pixel positions (0..256) beside visibility logits
    # (-10..10): one uint8 scale for both leaves the logits ~1.5 apart and moves landmarks by a
    # pixel or more, so its last layer (a 2x2 convolution on the 2x2 features: a fully connected
    # layer) stays float. (Keeping the person score's layer float too changed nothing: INT8 still
    # loses people whose FP32 score is near 0.5, from the quantized features.)
    if manifest["outputs"]["format"] == "blazepose-landmarks":
        exclude = head_layer(graph, manifest["outputs"]["landmarks"]["name"])
        model = onnx.load(str(pre))
        for name in [n for n in exclude if any(x.name == n and x.op_type == "Conv" for x in model.graph.node)]:
            exclude = [e for e in exclude if e != name] + (conv_as_gemm(model, name) or [name])
        onnx.save(model, str(pre))
    # Selfie segmentation's activations have rare outliers: min/max ranges left its person mask at
    # IoU 0.59-0.72 with FP32's on held-out photos of people, the 99.99th percentile at 0.86-0.93.
    calibration, extra = CalibrationMethod.MinMax, {}
    if manifest["outputs"]["format"] == "semantic-probability":
        calibration, extra = CalibrationMethod.Percentile, {"CalibPercentile": 99.99}
    activations = QuantType.QUInt8
    if a.precision == "w8a16":
        activations = QuantType.QUInt16
        extra = {**extra, "UseQDQContribOps": True}
    quantize_static(
        str(pre),
        str(dst),
        PhotoReader(manifest["input"], photos),
        quant_format=QuantFormat.QDQ,
        activation_type=activations,
        weight_type=QuantType.QInt8,
        per_channel=True,
        nodes_to_exclude=exclude,
        calibrate_method=calibration,
        extra_options=extra,
    )
    tmp.cleanup()
    print(f"quantized {src.name} to {a.precision} on {len(photos)} photos ({len(exclude)} decode nodes kept float: {', '.join(exclude) or 'none'})")


if __name__ == "__main__":
    main()
