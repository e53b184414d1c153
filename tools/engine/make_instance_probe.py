"""Writes a YOLOv8-seg probe model that always finds the same three instances, for tests.

    make_instance_probe.py OUT_DIR

OUT_DIR receives instance-probe.onnx, instance-probe.manifest.json and instances.json.

The untrained yolov8n-seg finds nothing, so it cannot show that the ids of the mono16 instance
image match Detection2D.id. This model has the exact Ultralytics export layout (input `images`
[1,3,640,640]; `output0` [1,116,N] = cx, cy, w, h in input pixels, 80 activated class scores, 32
mask coefficients; `output1` protos [1,32,160,160]), but its outputs are constants: instance k has
one class score, coefficient 1 on prototype k and 0 elsewhere, and prototype k is +1 on a band of
columns and -1 elsewhere. The other anchors score 0. So the mask of instance k is its box
(cropped, as Ultralytics' crop_mask does) narrowed to the band: a rectangle unlike the box.

Why the result is exact on every CPU: the constants pass through ONNX Runtime untouched (the
input only enters as 0 * max(images), which keeps the graph a function of its input); a mask
edge lies on a prototype cell border, where the bilinear field crosses 0 halfway between cell
centres of +1 and -1 (or, at the top and bottom, of the cropped-away 0 and the band's value).
With every edge on a multiple of 4 input pixels, it falls on a pixel border of any source image
letterboxed at scale 1 (e.g. 640x424: pad 108): every source pixel centre is 1/8 prototype cell
from it, and the sampled field is at least 0.15 away from 0 there, corners included (a rectangle
of +1 in a -1 field would cut its corners: the bands avoid that). The boxes are apart, so NMS
keeps all three.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR = 9
SIZE = 640
PROTO = 160
CLASSES = 80
MASK_DIM = 32
ANCHORS = 16
MARGIN = 4  # prototype cells between the band and the box's left and right edges

# (score, class, box interior in prototype cells: col0, row0, col1, row1, end-exclusive; the
# band is col0..col1, the box is that grown by MARGIN cells left and right)
INSTANCES = [
    (0.9, 0, (10, 40, 40, 80)),
    (0.8, 2, (60, 35, 100, 60)),
    (0.7, 16, (110, 90, 150, 125)),
]


def outputs():
    out0 = np.zeros((1, 4 + CLASSES + MASK_DIM, ANCHORS), np.float32)
    protos = np.zeros((1, MASK_DIM, PROTO, PROTO), np.float32)
    stride = SIZE // PROTO
    for k, (score, cls, (c0, r0, c1, r1)) in enumerate(INSTANCES):
        bx0, by0 = (c0 - MARGIN) * stride, r0 * stride
        bx1, by1 = (c1 + MARGIN) * stride, r1 * stride
        out0[0, 0:4, k] = [(bx0 + bx1) / 2, (by0 + by1) / 2, bx1 - bx0, by1 - by0]
        out0[0, 4 + cls, k] = score
        out0[0, 4 + CLASSES + k, k] = 1.0
        protos[0, k] = -1.0
        protos[0, k, :, c0:c1] = 1.0
    return out0, protos


def model():
    out0, protos = outputs()
    nodes = [
        helper.make_node("ReduceMax", ["images"], ["peak"], name="peak", keepdims=0),
        helper.make_node("Mul", ["peak", "zero"], ["nil"], name="nil"),
        helper.make_node("Add", ["const0", "nil"], ["output0"], name="out0"),
        helper.make_node("Add", ["const1", "nil"], ["output1"], name="out1"),
    ]
    g = helper.make_graph(
        nodes, "instance_probe",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, SIZE, SIZE])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(out0.shape)),
         helper.make_tensor_value_info("output1", TensorProto.FLOAT, list(protos.shape))],
        [numpy_helper.from_array(np.array(0, np.float32), "zero"),
         numpy_helper.from_array(out0, "const0"),
         numpy_helper.from_array(protos, "const1")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR)
    onnx.checker.check_model(m)
    return m


def manifest():
    return {
        "schemaVersion": 1,
        "name": "instance-probe",
        "task": "segment",
        "family": "yolov8",
        "weights": "untrained",
        "files": {"fp32": "instance-probe.onnx"},
        "input": {
            "name": "images", "width": SIZE, "height": SIZE, "layout": "NCHW",
            "colorOrder": "rgb", "dtype": "float32",
            "normalization": {"scale": 1 / 255, "mean": [0, 0, 0], "std": [1, 1, 1]},
            "resize": {"mode": "letterbox", "padValue": 114},
        },
        "outputs": {
            "format": "ultralytics-packed",
            "predictions": {"name": "output0", "dims": [1, 4 + CLASSES + MASK_DIM, ANCHORS],
                            "dtype": "float32", "layout": "channels-first"},
            "boxes": {"format": "cxcywh", "units": "input-pixels"},
            "scoresActivated": True,
            "maskCoefficients": MASK_DIM,
            "protos": {"name": "output1", "dims": [1, MASK_DIM, PROTO, PROTO],
                       "dtype": "float32", "layout": "NCHW"},
        },
        "classNames": [f"class{i}" for i in range(CLASSES)],
        "provenance": {
            "registry": "none", "package": "tools/models/make_instance_probe.py", "version": "1",
            "license": "Apache-2.0 (this project)",
            "description": "constant outputs placing three known instances (test probe, no weights)",
        },
        "notes": "Test probe: finds the same three instances in every image.",
    }


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    onnx.save(model(), os.path.join(out, "instance-probe.onnx"))
    with open(os.path.join(out, "instance-probe.manifest.json"), "w") as f:
        json.dump(manifest(), f, indent=2)
    stride = SIZE // PROTO
    # What a test needs to know, in network-input pixels: the mask rectangle and the box.
    described = [{
        "score": score, "classId": cls,
        "mask": [c0 * stride, r0 * stride, c1 * stride, r1 * stride],
        "box": [(c0 - MARGIN) * stride, r0 * stride, (c1 + MARGIN) * stride, r1 * stride],
    } for score, cls, (c0, r0, c1, r1) in INSTANCES]
    with open(os.path.join(out, "instances.json"), "w") as f:
        json.dump({"inputSize": SIZE, "instances": described}, f, indent=2)


if __name__ == "__main__":
    main()
