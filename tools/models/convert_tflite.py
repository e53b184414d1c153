"""Converts a .tflite model to ONNX with tf2onnx and proves the conversion: the ONNX file (ONNX
Runtime, CPU) and the .tflite file (TensorFlow's TFLite interpreter) run on the same photos, and
the largest absolute difference of every output is reported.

usage: convert_tflite.py FILE.tflite --output OUT.onnx --report REPORT.json PHOTO_OR_DIR...

`htp-perception model import FILE.tflite` drives this script (the converter and the reference
interpreter are Python-only, and live in the tools venv, never on a robot), reads the report,
applies the bound and writes the manifest; call it directly only to debug a conversion.

Custom operators: MediaPipe's Convolution2DTransposeBias is rewritten into ONNX ConvTranspose
(tflite_custom_ops.py) and each rewrite is also checked against the op's definition computed in
numpy. Any other custom operator is refused before conversion, naming it.

Photos are resized to the input's height x width (stretched, bilinear) and fed as RGB in 0..1 to
a float32 input, as the raw 0..255 bytes to a uint8 input. With --mean and --std (the file's TFLite
metadata NormalizationOptions, in 0..255 units; the import command passes them) a float32 input
gets (pixel - mean) / std instead, the values the model was trained on. The interpreter runs with its default
XNNPACK delegate, which implements Convolution2DTransposeBias (the interpreter's built-in kernels
do not: without the delegate it refuses the selfie models).

Exit codes: 0 converted (the report says how close), 3 refused (the report's "refused" says
why), 4 the tools venv lacks a package, 1 anything else.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import sys
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
warnings.filterwarnings("ignore")

try:
    import cv2
    import numpy as np
    import onnx
    import onnxruntime as ort
except ImportError as e:  # the tools venv is incomplete: the caller names the bootstrap step
    print(f"convert_tflite.py: {e}", file=sys.stderr)
    sys.exit(4)

from common import list_photos, read_rgb
from tflite_custom_ops import (
    KNOWN_CUSTOM_OPS,
    TRANSPOSE_CONV_BIAS,
    constant_tensor,
    custom_ops,
    load_model,
    onnx_rewrite_model,
    reference_transpose_conv_bias,
    tf2onnx_handler,
    transpose_conv_options,
)

OPSET = 17
REFUSED, MISSING = 3, 4


class Refused(Exception):
    """The file cannot be imported; the message says why (exit 3)."""


def tensor_info(d: dict) -> dict:
    sig = d.get("shape_signature")
    dims = [int(v) for v in (sig if sig is not None and len(sig) else d["shape"])]
    return {"name": d["name"], "dims": dims, "dtype": np.dtype(d["dtype"]).name}


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def image_feed(rgb: np.ndarray, info: dict, norm: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """One photo as the model's input tensor: stretched to its size, RGB, 0..1 or (pixel - mean) / std
    (float) or bytes."""
    dims = [1 if v < 0 else v for v in info["dims"]]
    nhwc = dims[3] == 3
    h, w = (dims[1], dims[2]) if nhwc else (dims[2], dims[3])
    img = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_LINEAR)
    if info["dtype"] != "float32":
        x = img
    elif norm is None:
        x = img.astype(np.float32) / 255.0
    else:
        x = (img.astype(np.float32) - norm[0]) / norm[1]
    x = x[None] if nhwc else x.transpose(2, 0, 1)[None]
    return np.ascontiguousarray(x, dtype=np.dtype(info["dtype"]))


def check_input(inputs: list[dict]) -> dict:
    if len(inputs) != 1:
        names = ", ".join(f"{i['name']} [{','.join(map(str, i['dims']))}]" for i in inputs)
        raise Refused(f"{len(inputs)} inputs ({names}); one image input is imported")
    i = inputs[0]
    d = i["dims"]
    image = len(d) == 4 and d[0] in (1, -1) and (d[3] == 3 or d[1] == 3) and min(d[1:]) > 0
    if not image or i["dtype"] not in ("float32", "uint8"):
        raise Refused(
            f"input '{i['name']}' is {i['dtype']} [{','.join(map(str, d))}]: the conversion check feeds photos, so one image input "
            "[1,H,W,3] or [1,3,H,W] of float32 or uint8 is imported"
        )
    return i


def rewrite_checks(model, ops) -> list[dict]:
    """Each rewritten custom op against its definition in numpy, on a seeded random input of the
    op's real input shape and with the file's real weights."""
    rng = np.random.default_rng(17)
    checks = []
    for op in ops:
        o = transpose_conv_options(op.options)
        w = constant_tensor(model, op.subgraph, op.inputs[1])
        b = constant_tensor(model, op.subgraph, op.inputs[2])
        g = model.Subgraphs(op.subgraph)
        shapes = {g.Tensors(t).Name().decode(): g.Tensors(t).ShapeAsNumpy().tolist() for t in range(g.TensorsLength())}
        x_shape = [1 if v < 0 else v for v in shapes[op.inputs[0]]]
        x = rng.uniform(-1.0, 1.0, x_shape).astype(np.float32)
        want = reference_transpose_conv_bias(x, w, b, o)
        s = ort.InferenceSession(onnx_rewrite_model(x_shape, w, b, o).SerializeToString(), providers=["CPUExecutionProvider"])
        got = s.run(None, {"x": x})[0]
        if got.shape != want.shape:
            raise RuntimeError(f"{op.code} {op.outputs[0]}: rewrite gives {got.shape}, definition {want.shape}")
        checks.append(
            {
                "op": op.code,
                "output": op.outputs[0],
                "onnx": "ConvTranspose",
                "kernel": list(w.shape[1:3]),
                "stride": [o.stride_h, o.stride_w],
                "padding": o.padding,
                "channels": [int(w.shape[3]), int(w.shape[0])],
                "maxAbsDiff": float(np.abs(got - want).max()),
                "maxAbsReference": float(np.abs(want).max()),
            }
        )
    return checks


def standard_ops_only(proto) -> None:
    """tf2onnx passes what it cannot convert through as nodes of no ONNX domain (TFL_*)."""
    unknown: dict[str, int] = {}
    for n in proto.graph.node:
        if n.domain not in ("", "ai.onnx") or not onnx.defs.has(n.op_type, n.domain):
            unknown[n.op_type] = unknown.get(n.op_type, 0) + 1
    if unknown:
        names = ", ".join(f"{k} ({v} node{'s' if v > 1 else ''})" for k, v in sorted(unknown.items()))
        raise Refused(f"tf2onnx {TF2ONNX_VERSION} cannot convert {names}: no ONNX equivalent is known here")


def compare(
    tflite_path: str, onnx_bytes: bytes, inp: dict, outputs: list[dict], photos: list[pathlib.Path], norm: tuple[np.ndarray, np.ndarray] | None
) -> dict:
    import tensorflow as tf

    it = tf.lite.Interpreter(model_path=tflite_path)
    d = it.get_input_details()[0]
    if any(v < 0 for v in inp["dims"]):
        it.resize_tensor_input(d["index"], [1 if v < 0 else v for v in inp["dims"]])
    it.allocate_tensors()
    s = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    onnx_in = s.get_inputs()[0].name
    onnx_out = [o.name for o in s.get_outputs()]
    missing = [o["name"] for o in outputs if o["name"] not in onnx_out]
    if missing:
        raise RuntimeError(f"ONNX outputs {onnx_out} lack the TFLite outputs {missing}")
    out_index = {o["name"]: o["index"] for o in it.get_output_details()}
    stats = {
        o["name"]: {"maxAbsDiff": 0.0, "maxAbsReference": 0.0, "min": np.inf, "max": -np.inf, "sumAbsDiff": 0.0, "count": 0, "worstImage": ""}
        for o in outputs
    }
    t_ref = t_onnx = 0.0
    for p in photos:
        x = image_feed(read_rgb(p), inp, norm)
        t0 = time.perf_counter()
        it.set_tensor(d["index"], x)
        it.invoke()
        ref = {n: it.get_tensor(i).astype(np.float64) for n, i in out_index.items()}
        t1 = time.perf_counter()
        got = dict(zip(onnx_out, s.run(None, {onnx_in: x})))
        t2 = time.perf_counter()
        t_ref, t_onnx = t_ref + t1 - t0, t_onnx + t2 - t1
        for name, st in stats.items():
            r, g = ref[name], got[name].astype(np.float64)
            if r.shape != g.shape:
                raise RuntimeError(f"output {name}: TFLite {r.shape}, ONNX {g.shape}")
            diff = np.abs(g - r)
            if diff.max() >= st["maxAbsDiff"]:
                st["maxAbsDiff"], st["worstImage"] = float(diff.max()), p.name
            st["maxAbsReference"] = max(st["maxAbsReference"], float(np.abs(r).max()))
            st["min"], st["max"] = min(st["min"], float(r.min())), max(st["max"], float(r.max()))
            st["sumAbsDiff"] += float(diff.sum())
            st["count"] += diff.size
    return {
        "reference": f"tf.lite.Interpreter (TensorFlow {tf.__version__}, XNNPACK delegate)",
        "runtime": f"onnxruntime {ort.__version__} CPU",
        "input": (
            "photos stretched to the input size, RGB, 0..1 (float32) or 0..255 (uint8)"
            if norm is None or inp["dtype"] != "float32"
            else f"photos stretched to the input size, RGB, (pixel - mean {norm[0].tolist()}) / std {norm[1].tolist()}"
        ),
        "images": [p.name for p in photos],
        "msPerImage": {"tflite": 1000 * t_ref / len(photos), "onnx": 1000 * t_onnx / len(photos)},
        "outputs": [
            {
                "name": o["name"],
                "dims": o["dims"],
                "maxAbsDiff": stats[o["name"]]["maxAbsDiff"],
                "meanAbsDiff": stats[o["name"]]["sumAbsDiff"] / max(1, stats[o["name"]]["count"]),
                "maxAbsReference": stats[o["name"]]["maxAbsReference"],
                "min": stats[o["name"]]["min"],
                "max": stats[o["name"]]["max"],
                "worstImage": stats[o["name"]]["worstImage"],
            }
            for o in outputs
        ],
    }


def run(a: argparse.Namespace, report: dict) -> None:
    try:
        model = load_model(a.tflite)
    except Exception as e:  # noqa: BLE001 - the flatbuffer reader raises plain exceptions
        raise Refused(f"not a readable TFLite model ({e})") from e
    if model.SubgraphsLength() < 1:
        raise Refused("no subgraph in the model")
    ops = custom_ops(model)
    unknown = sorted({op.code for op in ops if op.code not in KNOWN_CUSTOM_OPS and not op.code.startswith("Flex")})
    if unknown:
        raise Refused(
            f"custom operator{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} unknown: no ONNX equivalent is known "
            f"here (known: {', '.join(KNOWN_CUSTOM_OPS)})"
        )
    rewrites = [op for op in ops if op.code == TRANSPOSE_CONV_BIAS]
    report["rewrites"] = rewrite_checks(model, rewrites)

    import tensorflow as tf
    import tf2onnx

    it = tf.lite.Interpreter(model_path=a.tflite)
    inputs = [tensor_info(d) for d in it.get_input_details()]
    outputs = [tensor_info(d) for d in it.get_output_details()]
    report["tflite"] = {"inputs": inputs, "outputs": outputs, "sha256": sha256(a.tflite)}
    inp = check_input(inputs)

    handlers = {}
    if rewrites:
        options = {op.outputs[0]: transpose_conv_options(op.options) for op in rewrites}
        handlers[f"TFL_{TRANSPOSE_CONV_BIAS}"] = (tf2onnx_handler(options), [])
    t0 = time.perf_counter()
    proto, _ = tf2onnx.convert.from_tflite(a.tflite, opset=OPSET, custom_op_handlers=handlers or None)
    report["convertSeconds"] = time.perf_counter() - t0
    standard_ops_only(proto)
    onnx.checker.check_model(proto)
    meta = {
        "converted_from": os.path.basename(a.tflite),
        "converted_from_sha256": report["tflite"]["sha256"],
        "converter": f"tf2onnx {tf2onnx.__version__}, opset {OPSET}, by htp-perception model import",
    }
    for k, v in meta.items():
        proto.metadata_props.add(key=k, value=v)
    data = proto.SerializeToString()
    report["converter"] = f"tf2onnx {tf2onnx.__version__} (TensorFlow {tf.__version__}), opset {OPSET}"
    report["onnxNodes"] = len(proto.graph.node)

    photos: list[pathlib.Path] = []
    for p in map(pathlib.Path, a.photos):
        photos.extend(list_photos(p) if p.is_dir() else [p])
    t0 = time.perf_counter()
    report["check"] = compare(a.tflite, data, inp, outputs, photos, a.norm)
    report["checkSeconds"] = time.perf_counter() - t0
    pathlib.Path(a.output).write_bytes(data)


TF2ONNX_VERSION = "?"


def normalization(a: argparse.Namespace) -> tuple[np.ndarray, np.ndarray] | None:
    """--mean / --std: one value (every channel) or three, std positive."""
    if a.mean is None and a.std is None:
        return None
    if a.mean is None or a.std is None:
        raise SystemExit("convert_tflite.py: --mean and --std go together")
    out = []
    for flag, text in (("--mean", a.mean), ("--std", a.std)):
        v = np.array([float(x) for x in text.split(",")], np.float32)
        if v.size not in (1, 3) or not np.all(np.isfinite(v)) or (flag == "--std" and np.any(v <= 0)):
            raise SystemExit(f"convert_tflite.py: {flag} {text}: one or three finite values (std positive)")
        out.append(np.resize(v, 3))
    return out[0], out[1]


def finite_or_null(v):
    """JSON has no NaN or infinity: a non-finite difference travels as null (and fails the check)."""
    if isinstance(v, float):
        return v if np.isfinite(v) else None
    if isinstance(v, dict):
        return {k: finite_or_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [finite_or_null(x) for x in v]
    return v


def main() -> int:
    global TF2ONNX_VERSION
    ap = argparse.ArgumentParser()
    ap.add_argument("tflite")
    ap.add_argument("--output", required=True, help="the ONNX file to write")
    ap.add_argument("--report", required=True, help="where the JSON report goes")
    ap.add_argument("--mean", help="float input: per-channel mean in 0..255 units (with --std)")
    ap.add_argument("--std", help="float input: per-channel std in 0..255 units (with --mean)")
    ap.add_argument("photos", nargs="+", help="folders of photos and/or photo files for the check")
    a = ap.parse_args()
    a.norm = normalization(a)  # checked before the slow part
    report: dict = {"file": a.tflite}
    try:
        import tensorflow  # noqa: F401 - imported here so a missing package is named (exit 4)
        import tf2onnx

        TF2ONNX_VERSION = tf2onnx.__version__
    except ImportError as e:
        print(f"convert_tflite.py: {e}", file=sys.stderr)
        return MISSING
    code = 0
    try:
        run(a, report)
    except Refused as e:
        report["refused"] = str(e)
        code = REFUSED
    pathlib.Path(a.report).write_text(json.dumps(finite_or_null(report), indent=1, allow_nan=False))
    return code


if __name__ == "__main__":
    sys.exit(main())
