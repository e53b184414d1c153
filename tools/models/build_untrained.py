"""Builds HRNet-W32 (COCO 17 keypoints, 256x192) and DeepLabV3 MobileNetV3-Large (21 VOC classes,
520x520) as ONNX graphs with UNTRAINED weights, with the onnx helper API (no torch needed).

No registry package carries pretrained weights for either, so these models serve performance and
plumbing only; their heads are verified on synthetic tensors. The layer structure follows the
maintained definitions:
  - HRNet: the pose_hrnet w32_256x192 configuration of the HRNet authors' pose code (stem of two
    stride-2 3x3 convs, 4 bottlenecks, stages of 1/4/3 modules with 2/3/4 branches of 4 basic
    blocks, widths 32/64/128/256, fuse layers, last module high-resolution only, 1x1 final layer).
  - DeepLabV3: torchvision's deeplabv3_mobilenet_v3_large (MobileNetV3-Large backbone dilated to
    output stride 16, DeepLabHead = ASPP(960, rates 12/24/36) + 3x3 conv + 1x1 classifier, logits
    bilinearly upsampled to the input size).
BatchNorm is folded into the convolutions (conv + bias), which is what an inference export of a
trained model looks like too. Weights are He-normal from a fixed seed, so builds are reproducible;
residual branches are scaled down so activations stay finite through the deep untrained stack.

usage: build_untrained.py hrnet <out.onnx> | deeplabv3 <out.onnx>
"""
from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


class Graph:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.n = 0

    def _name(self, kind: str) -> str:
        self.n += 1
        return f"{kind}_{self.n}"

    def const(self, value: np.ndarray, kind: str = "c") -> str:
        name = self._name(kind)
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def op(self, op_type: str, inputs: list[str], **attrs) -> str:
        out = self._name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, dilation: int = 1, groups: int = 1,
             act: str | None = "relu", gain: float = 1.0) -> str:
        fan_in = cin // groups * k * k
        w = (self.rng.standard_normal((cout, cin // groups, k, k)) * np.sqrt(2.0 / fan_in) * gain).astype(np.float32)
        b = np.zeros(cout, np.float32)
        pad = dilation * (k - 1) // 2
        y = self.op("Conv", [x, self.const(w, "w"), self.const(b, "b")], kernel_shape=[k, k], strides=[stride, stride],
                    pads=[pad] * 4, dilations=[dilation, dilation], group=groups)
        return self.activation(y, act)

    def activation(self, x: str, act: str | None) -> str:
        if act == "relu":
            return self.op("Relu", [x])
        if act == "hswish":
            return self.op("HardSwish", [x])
        if act == "hsigmoid":
            return self.op("HardSigmoid", [x], alpha=1.0 / 6, beta=0.5)
        return x

    def add(self, a: str, b: str) -> str:
        return self.op("Add", [a, b])

    def upsample_nearest(self, x: str, factor: int) -> str:
        scales = self.const(np.array([1, 1, factor, factor], np.float32), "scales")
        return self.op("Resize", [x, "", scales], mode="nearest")

    def model(self, inputs, outputs, doc: str) -> onnx.ModelProto:
        g = helper.make_graph(self.nodes, "g", inputs, outputs, self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="htp_perception")
        m.ir_version = 8  # opset 17; readable by every ONNX Runtime the project uses
        m.doc_string = doc
        onnx.checker.check_model(m)
        return m


# ---------------------------------------------------------------- HRNet-W32
def hrnet(out: str) -> None:
    g = Graph(seed=32)
    x = "image"
    y = g.conv(x, 3, 64, 3, 2)
    y = g.conv(y, 64, 64, 3, 2)
    # layer1: 4 bottlenecks, 64 -> 256
    cin = 64
    for i in range(4):
        r = g.conv(y, cin, 64, 1)
        r = g.conv(r, 64, 64, 3)
        r = g.conv(r, 64, 256, 1, act=None, gain=0.2)
        short = g.conv(y, cin, 256, 1, act=None) if i == 0 else y
        y = g.op("Relu", [g.add(r, short)])
        cin = 256
    widths = [32, 64, 128, 256]
    # transition1
    branches = [g.conv(y, 256, 32, 3), g.conv(y, 256, 64, 3, 2)]
    for stage, modules in ((2, 1), (3, 4), (4, 3)):
        nb = stage
        for mod in range(modules):
            last = stage == 4 and mod == modules - 1
            # 4 basic blocks per branch
            for bi in range(nb):
                c = widths[bi]
                b = branches[bi]
                for _ in range(4):
                    r = g.conv(b, c, c, 3)
                    r = g.conv(r, c, c, 3, act=None, gain=0.2)
                    b = g.op("Relu", [g.add(r, b)])
                branches[bi] = b
            # fuse
            outs = []
            for i in range(1 if last else nb):
                acc = None
                for j in range(nb):
                    if j == i:
                        t = branches[j]
                    elif j > i:
                        t = g.conv(branches[j], widths[j], widths[i], 1, act=None)
                        t = g.upsample_nearest(t, 2 ** (j - i))
                    else:
                        t = branches[j]
                        for s in range(i - j):
                            final = s == i - j - 1
                            t = g.conv(t, widths[j], widths[i] if final else widths[j], 3, 2,
                                       act=None if final else "relu")
                    acc = t if acc is None else g.add(acc, t)
                outs.append(g.op("Relu", [acc]))
            branches = outs
        if stage < 4:
            branches = branches + [g.conv(branches[-1], widths[nb - 1], widths[nb], 3, 2)]
    heat = g.conv(branches[0], 32, 17, 1, act=None)
    g.nodes[-1].output[0] = "heatmaps"
    inp = helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", 3, 256, 192])
    outp = helper.make_tensor_value_info("heatmaps", TensorProto.FLOAT, ["batch", 17, 64, 48])
    del heat
    onnx.save(g.model([inp], [outp], "HRNet-W32 256x192, 17 COCO keypoints, UNTRAINED weights"), out)


# ---------------------------------------------------- DeepLabV3 MobileNetV3-Large
def make_divisible(v: float, divisor: int = 8) -> int:
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


# (in, kernel, expanded, out, squeeze-excite, activation, stride, dilation) per inverted residual,
# MobileNetV3-Large with the last stage dilated (stride 1, dilation 2) for output stride 16.
MBV3_LARGE = [
    (16, 3, 16, 16, False, "relu", 1, 1),
    (16, 3, 64, 24, False, "relu", 2, 1),
    (24, 3, 72, 24, False, "relu", 1, 1),
    (24, 5, 72, 40, True, "relu", 2, 1),
    (40, 5, 120, 40, True, "relu", 1, 1),
    (40, 5, 120, 40, True, "relu", 1, 1),
    (40, 3, 240, 80, False, "hswish", 2, 1),
    (80, 3, 200, 80, False, "hswish", 1, 1),
    (80, 3, 184, 80, False, "hswish", 1, 1),
    (80, 3, 184, 80, False, "hswish", 1, 1),
    (80, 3, 480, 112, True, "hswish", 1, 1),
    (112, 3, 672, 112, True, "hswish", 1, 1),
    (112, 5, 672, 160, True, "hswish", 1, 2),
    (160, 5, 960, 160, True, "hswish", 1, 2),
    (160, 5, 960, 160, True, "hswish", 1, 2),
]


def deeplabv3(out: str, size: int = 520, classes: int = 21) -> None:
    g = Graph(seed=3)
    y = g.conv("image", 3, 16, 3, 2, act="hswish")
    for cin, k, exp, cout, se, act, stride, dil in MBV3_LARGE:
        r = y
        if exp != cin:
            r = g.conv(r, cin, exp, 1, act=act)
        r = g.conv(r, exp, exp, k, stride, dilation=dil, groups=exp, act=act)
        if se:
            sq = make_divisible(exp // 4, 8)
            s = g.op("GlobalAveragePool", [r])
            s = g.conv(s, exp, sq, 1, act="relu")
            s = g.conv(s, sq, exp, 1, act="hsigmoid")
            r = g.op("Mul", [r, s])
        r = g.conv(r, exp, cout, 1, act=None, gain=0.2 if (stride == 1 and cin == cout) else 1.0)
        y = g.add(r, y) if stride == 1 and cin == cout else r
    feat = g.conv(y, 160, 960, 1, act="hswish")
    # ASPP
    fs = size // 16 + (1 if size % 16 else 0)
    branches = [g.conv(feat, 960, 256, 1)]
    for rate in (12, 24, 36):
        branches.append(g.conv(feat, 960, 256, 3, dilation=rate))
    pooled = g.op("GlobalAveragePool", [feat])
    pooled = g.conv(pooled, 960, 256, 1)
    size_const = g.const(np.array([1, 256, fs, fs], np.int64), "sizes")
    branches.append(g.op("Resize", [pooled, "", "", size_const], mode="linear"))
    cat = g.op("Concat", branches, axis=1)
    proj = g.conv(cat, 1280, 256, 1)
    head = g.conv(proj, 256, 256, 3)
    logits = g.conv(head, 256, classes, 1, act=None)
    out_size = g.const(np.array([1, classes, size, size], np.int64), "sizes")
    g.op("Resize", [logits, "", "", out_size], mode="linear")
    g.nodes[-1].output[0] = "logits"
    inp = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, size, size])
    outp = helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes, size, size])
    onnx.save(g.model([inp], [outp], "DeepLabV3 MobileNetV3-Large, 21 VOC classes, UNTRAINED weights"), out)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("hrnet", "deeplabv3"):
        raise SystemExit(__doc__)
    (hrnet if sys.argv[1] == "hrnet" else deeplabv3)(sys.argv[2])
    print(f"built {sys.argv[1]} -> {sys.argv[2]}")
