"""Writes a YOLO-sized stand-in for the engine benchmark to argv[1]: float32 input [1,3,640,640],
five strided 3x3 convs with SiLU-free ReLU, and a 1x1 head to [1,84,400]. Seeded weights; real
models (models/, prepared elsewhere) can be passed to the benchmark with --model instead."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    rng = np.random.default_rng(5)
    chans = [3, 16, 32, 64, 128, 128]
    nodes, inits = [], []
    x = "images"
    for i in range(5):
        w = numpy_helper.from_array(rng.normal(0, 0.1, (chans[i + 1], chans[i], 3, 3)).astype(np.float32), f"w{i}")
        b = numpy_helper.from_array(np.zeros(chans[i + 1], np.float32), f"b{i}")
        inits += [w, b]
        nodes.append(helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], strides=[2, 2], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        x = f"r{i}"
    inits.append(numpy_helper.from_array(rng.normal(0, 0.1, (84, 128, 1, 1)).astype(np.float32), "wh"))
    inits.append(numpy_helper.from_array(np.array([1, 84, 400], np.int64), "shape"))
    nodes.append(helper.make_node("Conv", [x, "wh"], ["h"]))
    nodes.append(helper.make_node("Reshape", ["h", "shape"], ["output0"]))
    g = helper.make_graph(nodes, "bench_net",
                          [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 640, 640])],
                          [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 84, 400])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    onnx.checker.check_model(m)
    onnx.save(m, sys.argv[1])


if __name__ == "__main__":
    main()
