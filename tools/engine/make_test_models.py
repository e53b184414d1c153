"""Writes the tiny ONNX models the engine tests use into a directory (argv[1]).

Weights come from a seeded generator, so the files are identical on every run. Nothing here is
checked in: tests call this script at start-up.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR = 9


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR)
    onnx.checker.check_model(model)
    onnx.save(model, path)


def conv_net(path):
    """images [1,3,32,48] -> Conv(3->4,3x3,pad 1) -> Relu -> features [1,4,32,48]; pooled [1,4]."""
    rng = np.random.default_rng(7)
    w = numpy_helper.from_array(rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.normal(0, 0.1, (4,)).astype(np.float32), "b")
    nodes = [
        helper.make_node("Conv", ["images", "w", "b"], ["c"], name="conv0", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["features"], name="relu0"),
        helper.make_node("ReduceMean", ["features"], ["pooled"], name="pool0", axes=[2, 3], keepdims=0),
    ]
    g = helper.make_graph(
        nodes, "conv_net",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 32, 48])],
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, [1, 4, 32, 48]),
         helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, 4])],
        [w, b])
    save(g, path)


def identity(path, elem, shape, name="input"):
    """Returns its input: lets tests read back exactly what preprocessing produced."""
    g = helper.make_graph(
        [helper.make_node("Identity", [name], ["out"], name="id0")], "identity",
        [helper.make_tensor_value_info(name, elem, shape)],
        [helper.make_tensor_value_info("out", elem, shape)])
    save(g, path)


def cast_f16(path):
    """images [1,3,8,8] float32 -> Cast -> half [1,3,8,8] float16: a float16 output."""
    g = helper.make_graph(
        [helper.make_node("Cast", ["images"], ["half"], name="cast0", to=TensorProto.FLOAT16)], "cast_f16",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("half", TensorProto.FLOAT16, [1, 3, 8, 8])])
    save(g, path)


def nonzero(path):
    """images [1,3,8,8] float32 -> NonZero -> where [4, n] int64: an output whose size only the run knows."""
    g = helper.make_graph(
        [helper.make_node("NonZero", ["images"], ["where"], name="nonzero0")], "nonzero",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("where", TensorProto.INT64, [4, "n"])])
    save(g, path)


def qdq_conv(path):
    """A QDQ-quantized conv (what the HTP wants): float IO, uint8 activations inside."""
    rng = np.random.default_rng(11)
    wq = rng.integers(0, 255, (4, 3, 3, 3)).astype(np.uint8)
    inits = [
        numpy_helper.from_array(np.array(1 / 255, np.float32), "in_s"),
        numpy_helper.from_array(np.array(0, np.uint8), "in_z"),
        numpy_helper.from_array(wq, "wq"),
        numpy_helper.from_array(np.array(0.01, np.float32), "w_s"),
        numpy_helper.from_array(np.array(128, np.uint8), "w_z"),
        numpy_helper.from_array(np.array(0.05, np.float32), "out_s"),
        numpy_helper.from_array(np.array(128, np.uint8), "out_z"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["images", "in_s", "in_z"], ["xq"], name="q_in"),
        helper.make_node("DequantizeLinear", ["xq", "in_s", "in_z"], ["x"], name="dq_in"),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["w"], name="dq_w"),
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv0", pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["c", "out_s", "out_z"], ["cq"], name="q_out"),
        helper.make_node("DequantizeLinear", ["cq", "out_s", "out_z"], ["features"], name="dq_out"),
    ]
    g = helper.make_graph(
        nodes, "qdq_conv",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, [1, 4, 16, 16])], inits)
    save(g, path)


def qdq_mixed(path):
    """The QDQ conv plus a float op (TopK over channels) the HTP does not take: a partial fallback."""
    m = onnx.load_from_string(_qdq_bytes())
    g = m.graph
    g.initializer.append(numpy_helper.from_array(np.array([2], np.int64), "k"))
    g.node.append(helper.make_node("TopK", ["features", "k"], ["top", "top_idx"], name="topk0", axis=1))
    g.output.append(helper.make_tensor_value_info("top", TensorProto.FLOAT, [1, 2, 16, 16]))
    save(g, path)


def qdq_dynamic_batch(path):
    """The QDQ conv with a symbolic batch, as exporters often leave it."""
    m = onnx.load_from_string(_qdq_bytes())
    for v in list(m.graph.input) + list(m.graph.output):
        v.type.tensor_type.shape.dim[0].dim_param = "batch"
    save(m.graph, path)


def _qdq_bytes():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        qdq_conv(os.path.join(d, "m.onnx"))
        with open(os.path.join(d, "m.onnx"), "rb") as f:
            return f.read()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    conv_net(os.path.join(out, "conv.onnx"))
    identity(os.path.join(out, "id_f32_nchw.onnx"), TensorProto.FLOAT, [1, 3, 24, 40])
    identity(os.path.join(out, "id_f32_nhwc.onnx"), TensorProto.FLOAT, [1, 24, 40, 3])
    identity(os.path.join(out, "id_u8_nhwc.onnx"), TensorProto.UINT8, [1, 24, 40, 3])
    identity(os.path.join(out, "id_i8_nchw.onnx"), TensorProto.INT8, [1, 3, 24, 40])
    identity(os.path.join(out, "id_mono.onnx"), TensorProto.FLOAT, [1, 1, 24, 40])
    identity(os.path.join(out, "id_dynamic.onnx"), TensorProto.FLOAT, [1, 3, "h", "w"])
    identity(os.path.join(out, "id_u8_dynamic.onnx"), TensorProto.UINT8, [1, 3, "h", "w"])
    identity(os.path.join(out, "id_i8_dynamic.onnx"), TensorProto.INT8, [1, 3, "h", "w"])
    identity(os.path.join(out, "rank3.onnx"), TensorProto.FLOAT, [1, 3, 16])
    identity(os.path.join(out, "id_f64.onnx"), TensorProto.DOUBLE, [1, 3, 8, 8])
    cast_f16(os.path.join(out, "cast_f16.onnx"))
    nonzero(os.path.join(out, "nonzero.onnx"))
    qdq_conv(os.path.join(out, "qdq_conv.onnx"))
    qdq_mixed(os.path.join(out, "qdq_mixed.onnx"))
    qdq_dynamic_batch(os.path.join(out, "qdq_dynbatch.onnx"))
    with open(os.path.join(out, "corrupt.onnx"), "wb") as f:
        f.write(b"\x08\x07this is not a protobuf model" * 10)
    print(out)


if __name__ == "__main__":
    main()
