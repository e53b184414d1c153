"""Builds YOLOv8n pose and segmentation graphs with UNTRAINED weights, in exactly the ONNX layout an
Ultralytics export has (input `images` [1,3,640,640]; pose `output0` [1,56,8400]; seg `output0`
[1,116,8400] + `output1` [1,32,160,160]), with the onnx helper API (no torch needed).

No registry package carries YOLOv8 pose or segmentation weights (the TFLite packages named in the
issue download theirs from GitHub at run time), so these serve performance and plumbing of the
pose and seg paths only. The layer structure follows Ultralytics' yolov8.yaml at scale n (depth
0.33, width 0.25): Conv/C2f/SPPF backbone, PAN neck, Pose/Segment heads with DFL box decoding,
anchors at cell centres, strides 8/16/32, keypoints decoded as (k * 2 + anchor - 0.5) * stride,
keypoint visibility and class scores through a sigmoid. BatchNorm is folded. Biases start as
Ultralytics' Detect.bias_init sets them (box 1.0, class log(5 / nc / (640 / stride)^2)), so an
untrained model scores almost nothing, as a freshly built Ultralytics model does.

usage: build_yolov8n_untrained.py pose|seg <out.onnx>
"""
from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from build_untrained import Graph

STRIDES = (8, 16, 32)
SIZE = 640


class Yolo(Graph):
    def cbs(self, x: str, cin: int, cout: int, k: int, s: int = 1) -> str:
        """Conv + (folded) BatchNorm + SiLU, exported as Sigmoid and Mul like Ultralytics does."""
        y = self.conv(x, cin, cout, k, s, act=None)
        return self.op("Mul", [y, self.op("Sigmoid", [y])])

    def conv_bias(self, x: str, cin: int, cout: int, bias: float) -> str:
        w = (self.rng.standard_normal((cout, cin, 1, 1)) * np.sqrt(2.0 / cin) * 0.1).astype(np.float32)
        b = np.full(cout, bias, np.float32)
        return self.op("Conv", [x, self.const(w, "w"), self.const(b, "b")], kernel_shape=[1, 1])

    def c2f(self, x: str, cin: int, cout: int, n: int, shortcut: bool) -> str:
        c = cout // 2
        y = self.cbs(x, cin, 2 * c, 1)
        a, b = self.op_multi("Split", [y, self.const(np.array([c, c], np.int64), "split")], 2, axis=1)
        ys = [a, b]
        for _ in range(n):
            t = self.cbs(ys[-1], c, c, 3)
            t = self.cbs(t, c, c, 3)
            ys.append(self.add(ys[-1], t) if shortcut else t)
        return self.cbs(self.op("Concat", ys, axis=1), (2 + n) * c, cout, 1)

    def sppf(self, x: str, cin: int, cout: int) -> str:
        c = cin // 2
        y = [self.cbs(x, cin, c, 1)]
        for _ in range(3):
            y.append(self.op("MaxPool", [y[-1]], kernel_shape=[5, 5], strides=[1, 1], pads=[2, 2, 2, 2]))
        return self.cbs(self.op("Concat", y, axis=1), 4 * c, cout, 1)

    def op_multi(self, op_type: str, inputs: list[str], n_out: int, **attrs) -> list[str]:
        base = self._name(op_type.lower())
        outs = [f"{base}_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=base, **attrs))
        return outs

    def upsample(self, x: str) -> str:
        return self.upsample_nearest(x, 2)

    def flat(self, x: str, channels: int) -> str:
        return self.op("Reshape", [x, self.const(np.array([1, channels, -1], np.int64), "shape")])


def anchors() -> tuple[np.ndarray, np.ndarray]:
    pts, strides = [], []
    for s in STRIDES:
        n = SIZE // s
        ys, xs = np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5, indexing="ij")
        pts.append(np.stack([xs.ravel(), ys.ravel()], 0))
        strides.append(np.full(n * n, s))
    return np.concatenate(pts, 1)[None].astype(np.float32), np.concatenate(strides)[None, None].astype(np.float32)


def build(task: str, out: str) -> None:
    g = Yolo(seed=8 if task == "pose" else 9)
    x = g.cbs("images", 3, 16, 3, 2)
    x = g.cbs(x, 16, 32, 3, 2)
    x = g.c2f(x, 32, 32, 1, True)
    x = g.cbs(x, 32, 64, 3, 2)
    p3 = g.c2f(x, 64, 64, 2, True)
    x = g.cbs(p3, 64, 128, 3, 2)
    p4 = g.c2f(x, 128, 128, 2, True)
    x = g.cbs(p4, 128, 256, 3, 2)
    x = g.c2f(x, 256, 256, 1, True)
    p5 = g.sppf(x, 256, 256)
    h12 = g.c2f(g.op("Concat", [g.upsample(p5), p4], axis=1), 384, 128, 1, False)
    h15 = g.c2f(g.op("Concat", [g.upsample(h12), p3], axis=1), 192, 64, 1, False)
    h18 = g.c2f(g.op("Concat", [g.cbs(h15, 64, 64, 3, 2), h12], axis=1), 192, 128, 1, False)
    h21 = g.c2f(g.op("Concat", [g.cbs(h18, 128, 128, 3, 2), p5], axis=1), 384, 256, 1, False)
    feats, chans = [h15, h18, h21], [64, 128, 256]

    nc = 1 if task == "pose" else 80
    extra = 51 if task == "pose" else 32
    c2, c3 = max(16, chans[0] // 4, 64), max(chans[0], min(nc, 100))
    c4 = max(chans[0] // 4, extra)
    box_l, cls_l, ext_l = [], [], []
    for f, c, s in zip(feats, chans, STRIDES):
        b = g.conv_bias(g.cbs(g.cbs(f, c, c2, 3), c2, c2, 3), c2, 64, 1.0)
        k = g.conv_bias(g.cbs(g.cbs(f, c, c3, 3), c3, c3, 3), c3, nc, math.log(5 / nc / (SIZE / s) ** 2))
        e = g.conv_bias(g.cbs(g.cbs(f, c, c4, 3), c4, c4, 3), c4, extra, 0.0)
        box_l.append(g.flat(b, 64))
        cls_l.append(g.flat(k, nc))
        ext_l.append(g.flat(e, extra))
    box = g.op("Concat", box_l, axis=2)
    cls = g.op("Sigmoid", [g.op("Concat", cls_l, axis=2)])
    ext = g.op("Concat", ext_l, axis=2)
    anc, strd = anchors()
    anc_c, strd_c = g.const(anc, "anchors"), g.const(strd, "strides")
    # DFL: softmax over 16 bins per side, expectation = distance in stride units
    d = g.op("Reshape", [box, g.const(np.array([1, 4, 16, -1], np.int64), "shape")])
    d = g.op("Softmax", [d], axis=2)
    d = g.op("Mul", [d, g.const(np.arange(16, dtype=np.float32).reshape(1, 1, 16, 1), "bins")])
    d = g.op("ReduceSum", [d, g.const(np.array([2], np.int64), "axes")], keepdims=0)
    lt, rb = g.op_multi("Split", [d, g.const(np.array([2, 2], np.int64), "split")], 2, axis=1)
    x1y1 = g.op("Sub", [anc_c, lt])
    x2y2 = g.op("Add", [anc_c, rb])
    cxy = g.op("Div", [g.add(x1y1, x2y2), g.const(np.array(2, np.float32), "two")])
    wh = g.op("Sub", [x2y2, x1y1])
    boxes = g.op("Mul", [g.op("Concat", [cxy, wh], axis=1), strd_c])
    if task == "pose":
        k = g.op("Reshape", [ext, g.const(np.array([1, 17, 3, -1], np.int64), "shape")])
        kxy, kv = g.op_multi("Split", [k, g.const(np.array([2, 1], np.int64), "split")], 2, axis=2)
        kxy = g.op("Mul", [kxy, g.const(np.array(2, np.float32), "two")])
        kxy = g.op("Add", [kxy, g.op("Sub", [g.op("Unsqueeze", [anc_c, g.const(np.array([1], np.int64), "axes")]),
                                             g.const(np.array(0.5, np.float32), "half")])])
        kxy = g.op("Mul", [kxy, g.op("Unsqueeze", [strd_c, g.const(np.array([1], np.int64), "axes")])])
        k = g.op("Concat", [kxy, g.op("Sigmoid", [kv])], axis=2)
        ext = g.op("Reshape", [k, g.const(np.array([1, 51, -1], np.int64), "shape")])
    g.op("Concat", [boxes, cls, ext], axis=1)
    g.nodes[-1].output[0] = "output0"
    outputs = [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 4 + nc + extra, 8400])]
    if task == "seg":
        # Proto: 256 prototype channels in the yaml, scaled by width 0.25 at scale n -> 64.
        npr = 64
        p = g.cbs(h15, 64, npr, 3)
        w = (g.rng.standard_normal((npr, npr, 2, 2)) * np.sqrt(2.0 / (npr * 4))).astype(np.float32)
        p = g.op("ConvTranspose", [p, g.const(w, "w"), g.const(np.zeros(npr, np.float32), "b")],
                 kernel_shape=[2, 2], strides=[2, 2])
        p = g.cbs(g.cbs(p, npr, npr, 3), npr, 32, 1)
        g.nodes.append(helper.make_node("Identity", [p], ["output1"], name="protos"))
        outputs.append(helper.make_tensor_value_info("output1", TensorProto.FLOAT, [1, 32, 160, 160]))
    inp = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, SIZE, SIZE])
    doc = f"YOLOv8n-{task} (Ultralytics yolov8.yaml scale n), UNTRAINED weights"
    m = g.model([inp], outputs, doc)
    onnx.helper.set_model_props(m, ultralytics_metadata(task, out, doc))
    onnx.save(m, out)


def ultralytics_metadata(task: str, out: str, doc: str) -> dict[str, str]:
    """The metadata_props an Ultralytics export carries (same keys, Python-literal values), so these
    files are imported like real exports. Class names come from the manifest checked in beside them."""
    manifest = os.path.join(os.path.dirname(os.path.abspath(out)), f"yolov8n-{task}.manifest.json")
    with open(manifest, encoding="utf-8") as f:
        names = json.load(f)["classNames"]
    meta = {"description": doc, "author": "htp_perception (not Ultralytics)", "stride": "32",
            "task": "segment" if task == "seg" else "pose", "batch": "1", "imgsz": str([SIZE, SIZE]),
            "names": str(dict(enumerate(names))), "channels": "3"}
    if task == "pose":
        meta["kpt_shape"] = str([17, 3])
    return meta


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("pose", "seg"):
        raise SystemExit(__doc__)
    build(sys.argv[1], sys.argv[2])
    print(f"built yolov8n-{sys.argv[1]} -> {sys.argv[2]}")
