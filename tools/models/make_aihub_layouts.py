"""Rewrites three bootstrap models into the I/O layouts of Qualcomm AI Hub exports, with manifests.

No AI Hub asset is on any registry we may use, so to prove that an AI-Hub-layout export dropped in
with a manifest runs end to end, the layout is rebuilt here from models we have. Only nodes are
appended to the original graphs (and the input renamed); no weight changes, so each derived model
must give exactly what its original gives once decoded:

  yolov8s-fall (real weights, Ultralytics output0 [1,6,8400] cx,cy,w,h + 2 sigmoided scores)
    -> input `image`; `boxes` [1,8400,4] x1,y1,x2,y2 input pixels, `scores` [1,8400] best class
       score, `class_idx` [1,8400] uint8 best class (AI Hub's detection contract)
  deeplabv3-mobilenetv3-large-520 (logits [1,21,520,520])
    -> input `image`; `mask` [1,520,520] uint8 class index (ArgMax + Cast inside the model)
  hrnet-w32-256x192 (heatmaps [batch,17,64,48])
    -> batch fixed to 1; `heatmaps` [1,64,48,17] NHWC, as a compiled (TFLite/QNN) asset reports

Each derived manifest starts from the original's (classes, keypoints, normalization) and changes
only what the layout changes; the letterbox pad stays 114 so detections stay comparable.

usage: make_aihub_layouts.py <models dir> <out dir>
"""
from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def rename_input(g: onnx.GraphProto, old: str, new: str) -> None:
    for i in g.input:
        if i.name == old:
            i.name = new
    for n in g.node:
        for k, name in enumerate(n.input):
            if name == old:
                n.input[k] = new


def const(g: onnx.GraphProto, name: str, values, dtype=np.int64) -> str:
    if any(i.name == name for i in g.initializer):
        return name
    g.initializer.append(numpy_helper.from_array(np.asarray(values, dtype=dtype), name))
    return name


def set_outputs(g: onnx.GraphProto, outputs: list[onnx.ValueInfoProto]) -> None:
    del g.output[:]
    g.output.extend(outputs)


def check_and_save(m: onnx.ModelProto, out: pathlib.Path) -> None:
    onnx.checker.check_model(m)
    tmp = out.with_suffix(".tmp")
    onnx.save(m, str(tmp))
    tmp.replace(out)


def detector(src: pathlib.Path, out: pathlib.Path) -> None:
    m = onnx.load(str(src))
    g = m.graph
    (pred,) = [o.name for o in g.output]
    rename_input(g, "images", "image")
    p = "aihub_"
    idx = lambda a: const(g, f"{p}{a}", [a])  # noqa: E731  (Slice bounds, shared by name)
    axis = const(g, p + "axis_last", [2])
    g.node.extend([
        # [1, 6, 8400] -> [1, 8400, 6]: anchors first, as AI Hub's tensors are
        helper.make_node("Transpose", [pred], [p + "t"], perm=[0, 2, 1]),
        helper.make_node("Slice", [p + "t", idx(0), idx(2), axis], [p + "cxcy"]),
        helper.make_node("Slice", [p + "t", idx(2), idx(4), axis], [p + "wh"]),
        helper.make_node("Slice", [p + "t", idx(4), const(g, p + "end", [2**62]), axis], [p + "cls"]),
        helper.make_node("Mul", [p + "wh", const(g, p + "half", [0.5], np.float32)], [p + "half_wh"]),
        helper.make_node("Sub", [p + "cxcy", p + "half_wh"], [p + "x1y1"]),
        helper.make_node("Add", [p + "cxcy", p + "half_wh"], [p + "x2y2"]),
        helper.make_node("Concat", [p + "x1y1", p + "x2y2"], ["boxes"], axis=2),
        # opset 13 ReduceMax takes axes as an attribute
        helper.make_node("ReduceMax", [p + "cls"], ["scores"], axes=[2], keepdims=0),
        helper.make_node("ArgMax", [p + "cls"], [p + "argmax"], axis=2, keepdims=0),
        helper.make_node("Cast", [p + "argmax"], ["class_idx"], to=TensorProto.UINT8),
    ])
    set_outputs(g, [
        helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [1, 8400, 4]),
        helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 8400]),
        helper.make_tensor_value_info("class_idx", TensorProto.UINT8, [1, 8400]),
    ])
    check_and_save(m, out)


def deeplab(src: pathlib.Path, out: pathlib.Path) -> None:
    m = onnx.load(str(src))
    g = m.graph
    (logits,) = [o.name for o in g.output]
    g.node.extend([
        helper.make_node("ArgMax", [logits], ["aihub_argmax"], axis=1, keepdims=0),
        helper.make_node("Cast", ["aihub_argmax"], ["mask"], to=TensorProto.UINT8),
    ])
    set_outputs(g, [helper.make_tensor_value_info("mask", TensorProto.UINT8, [1, 520, 520])])
    check_and_save(m, out)


def hrnet_nhwc(src: pathlib.Path, out: pathlib.Path) -> None:
    m = onnx.load(str(src))
    g = m.graph
    (heat,) = [o.name for o in g.output]
    for i in g.input:
        i.type.tensor_type.shape.dim[0].Clear()
        i.type.tensor_type.shape.dim[0].dim_value = 1
    # The public name goes to the NHWC tensor; the original output becomes an intermediate.
    for n in g.node:
        for k, name in enumerate(n.output):
            if name == heat:
                n.output[k] = "heatmaps_nchw"
    g.node.extend([helper.make_node("Transpose", ["heatmaps_nchw"], ["heatmaps"], perm=[0, 2, 3, 1])])
    set_outputs(g, [helper.make_tensor_value_info("heatmaps", TensorProto.FLOAT, [1, 64, 48, 17])])
    check_and_save(m, out)


def manifest(orig: pathlib.Path, out: pathlib.Path, name: str, onnx_file: str, outputs: dict,
             description: str, input_name: str | None = None, notes: str = "") -> None:
    d = json.loads(orig.read_text())
    d["name"] = name
    d["files"] = {"fp32": onnx_file}
    if input_name:
        d["input"]["name"] = input_name
    d["outputs"] = outputs
    d["provenance"] = {
        "registry": "none",
        "package": "tools/models/make_aihub_layouts.py",
        "version": "1",
        "license": d["provenance"]["license"],
        "description": description,
    }
    d["notes"] = notes
    out.write_text(json.dumps(d, indent=2) + "\n")


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: make_aihub_layouts.py <models dir> <out dir>")
    models, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)

    detector(models / "yolov8-fall/yolov8s-fall.onnx", out / "yolov8s-fall-aihub.onnx")
    manifest(
        models / "yolov8-fall/yolov8s-fall.manifest.json", out / "yolov8s-fall-aihub.manifest.json",
        "yolov8s-fall-aihub", "yolov8s-fall-aihub.onnx",
        {
            "format": "aihub-split",
            "boxesTensor": {"name": "boxes", "dims": [1, 8400, 4], "dtype": "float32"},
            "boxes": {"format": "xyxy", "units": "input-pixels"},
            "scores": {"name": "scores", "dims": [1, 8400], "dtype": "float32"},
            "classIdx": {"name": "class_idx", "dims": [1, 8400], "dtype": "uint8"},
        },
        "yolov8s-fall (real weights) with AI Hub's detection outputs appended to the unchanged graph",
        input_name="image",
        notes="Letterbox pad kept at 114 (the original's), so detections compare one for one.",
    )

    deeplab(models / "deeplabv3/deeplabv3-mobilenetv3-large-520.onnx", out / "deeplabv3-aihub-argmax.onnx")
    manifest(
        models / "deeplabv3/deeplabv3-mobilenetv3-large-520.manifest.json",
        out / "deeplabv3-aihub-argmax.manifest.json",
        "deeplabv3-aihub-argmax", "deeplabv3-aihub-argmax.onnx",
        {"format": "semantic-argmax", "mask": {"name": "mask", "dims": [1, 520, 520], "dtype": "uint8"}},
        "deeplabv3-mobilenetv3-large-520 (untrained) with ArgMax + Cast to uint8 appended, as AI Hub exports",
        notes="UNTRAINED: its labels mean nothing; only the layout is under test.",
    )

    hrnet_nhwc(models / "hrnet/hrnet-w32-256x192.onnx", out / "hrnet-nhwc.onnx")
    manifest(
        models / "hrnet/hrnet-w32-256x192.manifest.json", out / "hrnet-nhwc.manifest.json",
        "hrnet-nhwc", "hrnet-nhwc.onnx",
        {"format": "heatmaps",
         "heatmaps": {"name": "heatmaps", "dims": [1, 64, 48, 17], "dtype": "float32", "layout": "NHWC"}},
        "hrnet-w32-256x192 (untrained), batch fixed to 1, heatmaps transposed to NHWC as compiled assets report",
        notes="UNTRAINED: its keypoints mean nothing; only the layout is under test.",
    )
    print(f"wrote 3 AI-Hub-layout models and manifests to {out}")


if __name__ == "__main__":
    main()
