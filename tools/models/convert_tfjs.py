"""Converts a TensorFlow.js graph model (model.json + weight shards) to ONNX with tf2onnx's tfjs
reader and proves the conversion against TensorFlow.js itself: tools/tfjs/reference.js runs the
model.json in Node with TensorFlow.js' own graph executor (WebAssembly backend), ONNX Runtime runs
the ONNX file, both on the same photos, and the largest difference of every output is reported.

usage: convert_tfjs.py MODEL_JSON --output OUT.onnx --report REPORT.json --node NODE
                       --reference REFERENCE_JS [--size HxW] [--mean M --std S] [--bgr] PHOTO_OR_DIR...

`htp-perception model import model.json` drives this script and reads the report; call it directly
only to debug a conversion.

Why the model.json is patched first: TensorFlow.js' converter leaves out attributes that have a
default in TensorFlow's op definitions (the fused convolutions' TArgs, TopKV2's index_type, ...),
and tf2onnx's reader wants them. They are written back from TensorFlow's op definitions (defaults
only: nothing the model states changes) into a copy beside links to the shards; the report counts
them. --size fixes a dynamic input's height and width (MoveNet MultiPose). An int32 image input
(MoveNet's: RGB 0..255) becomes a uint8 input followed by a Cast, the same values in the bytes the
engine feeds.

Photos go in stretched to the input size (bilinear), RGB (BGR with --bgr), as 0..255 integers to
an integer input; to a float input as 0..1, or (pixel - mean) / std with --mean/--std (0..255
units). Both runtimes get the same tensor.

Exit codes: 0 converted (the report says how close), 3 refused (the report's "refused" says why),
4 the tools venv lacks a package, 1 anything else.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
warnings.filterwarnings("ignore")

try:
    import cv2
    import numpy as np
    import onnx
    import onnxruntime as ort
except ImportError as e:
    print(f"convert_tfjs.py: {e}", file=sys.stderr)
    sys.exit(4)

from common import list_photos, read_rgb

OPSET = 17
REFUSED, MISSING = 3, 4
# tf2onnx's fused-op handlers read TArgs, which TensorFlow's op definitions give no default.
FUSED_OPS = ("_FusedConv2D", "FusedDepthwiseConv2dNative", "_FusedMatMul")
DTYPES = {"DT_FLOAT": "float32", "DT_INT32": "int32"}


class Refused(Exception):
    """The file cannot be imported; the message says why (exit 3)."""


def sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_graph_model(src: pathlib.Path) -> dict:
    try:
        d = json.loads(src.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Refused(f"not a readable model.json ({e})") from e
    if not isinstance(d, dict) or d.get("format") != "graph-model" or "modelTopology" not in d:
        raise Refused(f"format {d.get('format') if isinstance(d, dict) else None!r}: a TensorFlow.js graph model is imported (layers models are not)")
    for group in d.get("weightsManifest", []):
        for p in group.get("paths", []):
            if not (src.parent / p).is_file():
                raise Refused(f"weight shard {p} named by the model.json is not beside it")
    return d


def fill_defaults(d: dict) -> dict[str, int]:
    from google.protobuf.json_format import MessageToDict
    from tensorflow.python.framework import op_def_registry

    filled: dict[str, int] = {}

    def count(key: str) -> None:
        filled[key] = filled.get(key, 0) + 1

    for node in d["modelTopology"].get("node", []):
        attrs = node.setdefault("attr", {})
        if node["op"] in FUSED_OPS and "TArgs" not in attrs:
            attrs["TArgs"] = {"list": {"type": ["DT_FLOAT"] * int(attrs.get("num_args", {}).get("i", "0"))}}
            count(f"{node['op']}.TArgs")
        op = op_def_registry.get(node["op"])
        for a in op.attr if op is not None else []:
            if a.name not in attrs and a.HasField("default_value"):
                attrs[a.name] = MessageToDict(a.default_value)
                count(f"{node['op']}.{a.name}")
    return filled


def placeholder_dims(d: dict, name: str) -> list[int] | None:
    """The graph's own shape of its input (the signature may state one size of a dynamic graph)."""
    for n in d["modelTopology"].get("node", []):
        if n.get("op") == "Placeholder" and n.get("name") == name.split(":")[0]:
            dims = n.get("attr", {}).get("shape", {}).get("shape", {}).get("dim")
            return None if dims is None else [int(x.get("size", -1)) for x in dims]
    return None


def signature_input(d: dict, size: tuple[int, int] | None) -> dict:
    inputs = list(((d.get("signature") or {}).get("inputs") or {}).values())
    if len(inputs) != 1:
        raise Refused(f"{len(inputs)} inputs in the model's signature; one image input is imported")
    i = inputs[0]
    stated = [int(x.get("size", -1)) for x in i.get("tensorShape", {}).get("dim", [])]
    graph = placeholder_dims(d, i.get("name", ""))
    dims = graph if graph is not None and len(graph) == len(stated) else stated
    dtype = DTYPES.get(i.get("dtype", ""))
    if len(dims) != 4 or dtype is None or not (dims[3] == 3 or dims[1] == 3):
        raise Refused(f"input {i.get('name')} {i.get('dtype')} {dims}: one image input [1,H,W,3] or [1,3,H,W] of float32 or int32 is imported")
    nhwc = dims[3] == 3
    hw = (1, 2) if nhwc else (2, 3)
    dynamic = any(dims[k] < 0 for k in hw)
    if dynamic:
        # The size chosen at import; else the one the signature states, when it states one.
        chosen = size or (stated[hw[0]], stated[hw[1]])
        if min(chosen) <= 0:
            raise Refused(f"input {i['name']} has a dynamic size {dims}: choose one (--size HxW)")
        dims[hw[0]], dims[hw[1]] = chosen
    elif size is not None and (dims[hw[0]], dims[hw[1]]) != size:
        raise Refused(f"--size {size[0]}x{size[1]}: input {i['name']} has a fixed size {dims[hw[0]]}x{dims[hw[1]]}")
    dims[0] = 1
    return {"name": i["name"], "dims": dims, "dtype": dtype, "nhwc": nhwc, "dynamic": dynamic}


def bytes_input(proto, inp: dict) -> str:
    """The int32 image input becomes uint8 + Cast: the engine feeds bytes, the values are 0..255."""
    from onnx import TensorProto, helper

    g = proto.graph
    old = g.input[0]
    cast_out = old.name + "_int32"
    for n in g.node:
        for k, x in enumerate(n.input):
            if x == old.name:
                n.input[k] = cast_out
    new = old.name.split(":")[0] + "_bytes"
    g.node.insert(0, helper.make_node("Cast", [new], [cast_out], to=TensorProto.INT32, name="image_bytes_to_int32"))
    g.input.remove(old)
    g.input.insert(0, helper.make_tensor_value_info(new, TensorProto.UINT8, inp["dims"]))
    return new


def feed(rgb: np.ndarray, inp: dict, norm, bgr: bool) -> np.ndarray:
    d = inp["dims"]
    h, w = (d[1], d[2]) if inp["nhwc"] else (d[2], d[3])
    img = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_LINEAR)
    if bgr:
        img = img[:, :, ::-1]
    if inp["dtype"] != "float32":
        x = img.astype(np.int32)
    elif norm is None:
        x = img.astype(np.float32) / 255.0
    else:
        x = (img.astype(np.float32) - norm[0]) / norm[1]
    x = x[None] if inp["nhwc"] else x.transpose(2, 0, 1)[None]
    return np.ascontiguousarray(x)


def convert(model_json: pathlib.Path, inp: dict, out: pathlib.Path) -> None:
    import tf2onnx.convert

    name = inp["name"] if ":" in inp["name"] else inp["name"] + ":0"
    argv = ["tf2onnx.convert", "--tfjs", str(model_json), "--output", str(out), "--opset", str(OPSET),
            "--inputs", f"{name}[{','.join(map(str, inp['dims']))}]"]
    saved, sys.argv = sys.argv, argv
    try:
        tf2onnx.convert.main()
    finally:
        sys.argv = saved


def fold_constants(proto):
    """ONNX Runtime's basic rewrites (constant folding, Pad into Conv, nothing provider-specific):
    TensorFlow.js graphs keep subgraphs of constants (SparseToDense into ScatterND, Expand, Cast)
    that ONNX Runtime's quantizer calibrates as if they were activations and QNN's HTP cannot
    compose; folded, the graph is the network alone. The check then runs on the folded file."""
    from onnx import helper

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    with tempfile.TemporaryDirectory(prefix="htp-fold-") as tmp:
        so.optimized_model_filepath = os.path.join(tmp, "folded.onnx")
        ort.InferenceSession(proto.SerializeToString(), so, providers=["CPUExecutionProvider"])
        folded = onnx.load(so.optimized_model_filepath)
    used = {n.domain for n in folded.graph.node}
    keep = [o for o in folded.opset_import if o.domain in used or o.domain in ("", "ai.onnx")]
    del folded.opset_import[:]
    folded.opset_import.extend(keep or [helper.make_opsetid("", OPSET)])
    return folded


def merge_inf_pads(proto) -> int:
    """TensorFlow's SAME max pooling reaches ONNX as Pad(value -inf) + MaxPool: exact, but a -inf
    activation leaves every quantizer without a finite range (its INT8 copy was garbage) and the
    HTP without a quantized Pad. MaxPool's own pads are the same thing (padding never wins a max),
    so the Pad's spatial padding moves into the MaxPool. Returns how many were merged."""
    from onnx import numpy_helper

    g = proto.graph
    init = {i.name: i for i in g.initializer}
    consumers: dict[str, list] = {}
    for n in g.node:
        for x in n.input:
            consumers.setdefault(x, []).append(n)
    graph_outputs = {o.name for o in g.output}
    merged = 0
    for pad in [n for n in g.node if n.op_type == "Pad"]:
        mode = next((a.s.decode() for a in pad.attribute if a.name == "mode"), "constant")
        if mode != "constant" or len(pad.input) < 3 or pad.input[1] not in init or pad.input[2] not in init:
            continue
        value = numpy_helper.to_array(init[pad.input[2]])
        pads = numpy_helper.to_array(init[pad.input[1]]).tolist()
        users = consumers.get(pad.output[0], [])
        if value.size != 1 or not np.isneginf(value).all() or len(pads) != 8 or pad.output[0] in graph_outputs:
            continue
        if len(users) != 1 or users[0].op_type != "MaxPool" or any(pads[k] for k in (0, 1, 4, 5)):
            continue
        pool = users[0]
        own = next((list(a.ints) for a in pool.attribute if a.name == "pads"), [0, 0, 0, 0])
        auto = next((a.s.decode() for a in pool.attribute if a.name == "auto_pad"), "NOTSET")
        if auto not in ("NOTSET", "VALID") or any(own):
            continue
        for a in list(pool.attribute):
            if a.name in ("pads", "auto_pad"):
                pool.attribute.remove(a)
        pool.attribute.extend([onnx.helper.make_attribute("pads", [pads[2], pads[3], pads[6], pads[7]])])
        pool.input[0] = pad.input[0]
        g.node.remove(pad)
        merged += 1
    return merged


def compare(onnx_bytes: bytes, onnx_input: str, xs: list[np.ndarray], photos, ref_dir: pathlib.Path, d: dict, to_bytes: bool) -> dict:
    ref = json.loads((ref_dir / "reference.json").read_text())
    s = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    onnx_out = [o.name for o in s.get_outputs()]
    # tf2onnx names an output by its signature key where the signature has one (output_0), else by tensor (Identity:0).
    by_tensor = {v.get("name"): k for k, v in ((d.get("signature") or {}).get("outputs") or {}).items()}
    names = []
    for o in ref["outputs"]:
        cands = (o["name"], o["name"] + ":0", by_tensor.get(o["name"]), by_tensor.get(o["name"] + ":0"))
        n = next((c for c in cands if c in onnx_out), None)
        if n is None:
            raise RuntimeError(f"TensorFlow.js output {o['name']} has no ONNX output among {onnx_out}")
        names.append(n)
    stats = [{"maxAbsDiff": 0.0, "maxAbsReference": 0.0, "min": np.inf, "max": -np.inf, "sumAbsDiff": 0.0, "count": 0, "worstImage": ""} for _ in names]
    t_onnx = 0.0
    for i, (x, p) in enumerate(zip(xs, photos)):
        t0 = time.perf_counter()
        got = dict(zip(onnx_out, s.run(None, {onnx_input: x.astype(np.uint8) if to_bytes else x})))
        t_onnx += time.perf_counter() - t0
        for k, (n, st) in enumerate(zip(names, stats)):
            g = got[n].astype(np.float64)
            r = np.fromfile(ref_dir / f"{i}.{k}.bin", np.float32).astype(np.float64)
            if r.size != g.size:
                raise RuntimeError(f"output {n}: TensorFlow.js {ref['outputs'][k]['shape']}, ONNX {list(g.shape)}")
            r = r.reshape(g.shape)
            diff = np.abs(g - r)
            if diff.max() >= st["maxAbsDiff"]:
                st["maxAbsDiff"], st["worstImage"] = float(diff.max()), p.name
            st["maxAbsReference"] = max(st["maxAbsReference"], float(np.abs(r).max()))
            st["min"], st["max"] = min(st["min"], float(r.min())), max(st["max"], float(r.max()))
            st["sumAbsDiff"] += float(diff.sum())
            st["count"] += diff.size
    dims = {o.name: [int(v) if isinstance(v, int) else -1 for v in o.shape] for o in s.get_outputs()}
    return {
        "reference": f"TensorFlow.js {ref['tfjs']} ({ref['backend']} backend, tools/tfjs)",
        "runtime": f"onnxruntime {ort.__version__} CPU",
        "images": [p.name for p in photos],
        "msPerImage": {"reference": ref["msPerImage"], "onnx": 1000 * t_onnx / len(xs)},
        "outputs": [
            {"name": n, "tfjs": o["name"], "dims": dims[n], "maxAbsDiff": st["maxAbsDiff"], "meanAbsDiff": st["sumAbsDiff"] / max(1, st["count"]),
             "maxAbsReference": st["maxAbsReference"], "min": st["min"], "max": st["max"], "worstImage": st["worstImage"]}
            for n, o, st in zip(names, ref["outputs"], stats)
        ],
    }


def run(a: argparse.Namespace, report: dict) -> None:
    import tensorflow as tf
    import tf2onnx

    src = pathlib.Path(a.model_json)
    d = read_graph_model(src)
    shards = [p for g in d.get("weightsManifest", []) for p in g.get("paths", [])]
    report["source"] = {
        "sha256": sha256(src),
        "shards": [{"path": p, "sha256": sha256(src.parent / p)} for p in shards],
        "generatedBy": d.get("generatedBy"),
        "convertedBy": d.get("convertedBy"),
    }
    inp = signature_input(d, a.size)
    report["filledDefaults"] = fill_defaults(d)
    with tempfile.TemporaryDirectory(prefix="htp-tfjs-") as tmp:
        t = pathlib.Path(tmp)
        for p in shards:
            (t / p).parent.mkdir(parents=True, exist_ok=True)
            (t / p).symlink_to((src.parent / p).resolve())
        patched = t / "model.json"
        patched.write_text(json.dumps(d))
        t0 = time.perf_counter()
        convert(patched, inp, t / "model.onnx")
        report["convertSeconds"] = time.perf_counter() - t0
        proto = onnx.load(str(t / "model.onnx"))
        to_bytes = inp["dtype"] == "int32"
        onnx_input = bytes_input(proto, inp) if to_bytes else proto.graph.input[0].name
        before = len(proto.graph.node)
        proto = fold_constants(proto)
        report["folded"] = {"nodesBefore": before, "nodesAfter": len(proto.graph.node), "infPadsIntoMaxPool": merge_inf_pads(proto)}
        onnx.checker.check_model(proto)
        for k, v in {"converted_from": src.name, "converted_from_sha256": report["source"]["sha256"],
                     "converter": f"tf2onnx {tf2onnx.__version__}, opset {OPSET}, by htp-perception model import"}.items():
            proto.metadata_props.add(key=k, value=v)
        data = proto.SerializeToString()
        report["converter"] = f"tf2onnx {tf2onnx.__version__} tfjs reader (TensorFlow {tf.__version__}), opset {OPSET}"
        report["onnxNodes"] = len(proto.graph.node)
        report["input"] = {"name": onnx_input, "dims": inp["dims"], "dtype": "uint8" if to_bytes else inp["dtype"],
                           "layout": "NHWC" if inp["nhwc"] else "NCHW", "dynamic": inp["dynamic"],
                           "original": {"name": inp["name"], "dtype": inp["dtype"]}}

        photos: list[pathlib.Path] = []
        for p in map(pathlib.Path, a.photos):
            photos.extend(list_photos(p) if p.is_dir() else [p])
        xs = [feed(read_rgb(p), inp, a.norm, a.bgr) for p in photos]
        feeds, outs = t / "feeds", t / "reference"
        feeds.mkdir(), outs.mkdir()
        for i, x in enumerate(xs):
            x.tofile(feeds / f"{i}.bin")
        (feeds / "feeds.json").write_text(json.dumps({"dtype": inp["dtype"], "shape": list(xs[0].shape), "count": len(xs)}))
        t0 = time.perf_counter()
        r = subprocess.run([a.node, a.reference, str(patched), str(feeds), str(outs)], capture_output=True, text=True)
        if r.returncode != 0:
            lines = [x for x in r.stderr.splitlines() if x.strip()]
            raise RuntimeError(f"TensorFlow.js could not run the model: {lines[-1] if lines else 'exit ' + str(r.returncode)}")
        report["check"] = compare(data, onnx_input, xs, photos, outs, d, to_bytes)
        order = "BGR" if a.bgr else "RGB"
        report["check"]["input"] = (
            f"photos stretched to the input size, {order}, 0..255 integers" if inp["dtype"] != "float32"
            else f"photos stretched to the input size, {order}, 0..1" if a.norm is None
            else f"photos stretched to the input size, {order}, (pixel - mean {a.norm[0].tolist()}) / std {a.norm[1].tolist()}")
        report["checkSeconds"] = time.perf_counter() - t0
    pathlib.Path(a.output).write_bytes(data)


def finite_or_null(v):
    """JSON has no NaN or infinity: a non-finite difference travels as null (and fails the check)."""
    if isinstance(v, float):
        return v if np.isfinite(v) else None
    if isinstance(v, dict):
        return {k: finite_or_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [finite_or_null(x) for x in v]
    return v


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("model_json")
    ap.add_argument("--output", required=True, help="the ONNX file to write")
    ap.add_argument("--report", required=True, help="where the JSON report goes")
    ap.add_argument("--node", required=True, help="the Node.js that runs the reference")
    ap.add_argument("--reference", required=True, help="tools/tfjs/reference.js")
    ap.add_argument("--size", help="HxW for a dynamic input")
    ap.add_argument("--mean", help="float input: per-channel mean in 0..255 units (with --std)")
    ap.add_argument("--std", help="float input: per-channel std in 0..255 units (with --mean)")
    ap.add_argument("--bgr", action="store_true", help="photos go in as BGR")
    ap.add_argument("photos", nargs="+")
    a = ap.parse_args()
    a.size = None if a.size is None else tuple(int(v) for v in a.size.lower().split("x"))
    if a.size is not None and (len(a.size) != 2 or min(a.size) <= 0):
        raise SystemExit(f"convert_tfjs.py: --size {a.size}: HxW, both positive")
    a.norm = None
    if (a.mean is None) != (a.std is None):
        raise SystemExit("convert_tfjs.py: --mean and --std go together")
    if a.mean is not None:
        m, s = (np.resize(np.array([float(x) for x in t.split(",")], np.float32), 3) for t in (a.mean, a.std))
        if not (np.all(np.isfinite(m)) and np.all(np.isfinite(s)) and np.all(s > 0)):
            raise SystemExit("convert_tfjs.py: --mean/--std: finite values, std positive")
        a.norm = (m, s)
    return a


def main() -> int:
    a = parse_args()
    np.product = np.prod  # tf2onnx 1.17's tfjs reader still calls it; numpy 2 removed it
    report: dict = {"file": a.model_json}
    try:
        import tensorflow  # noqa: F401 - a missing package is named (exit 4)
        import tf2onnx  # noqa: F401
    except ImportError as e:
        print(f"convert_tfjs.py: {e}", file=sys.stderr)
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
