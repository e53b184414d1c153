"""TFLite custom operators: finding them in a .tflite flatbuffer, and MediaPipe's
Convolution2DTransposeBias expressed in standard ONNX.

Convolution2DTransposeBias (MediaPipe, used by the selfie segmentation models) is TFLite's
TRANSPOSE_CONV with a bias input and its options stored as a raw C struct rather than as builtin
options. What it computes, as MediaPipe's kernel documents it:
  inputs   0: x [N, H, W, Cin] (NHWC), 1: weights [Cout, kh, kw, Cin] (OHWI), 2: bias [Cout]
  options  12 bytes, little-endian int32: padding (1 SAME, 2 VALID), stride_width, stride_height
  output   y[n, iy*sh - pad_top + fy, ix*sw - pad_left + fx, o] += x[n, iy, ix, c] * w[o, fy, fx, c],
           plus bias[o]; SAME: pad_total = max(0, k - (in - 1) % s - 1) per axis, pad_begin =
           pad_total // 2, out = s * (in - 1) + k - pad_total; VALID: no padding.
ONNX ConvTranspose scatters the same way (output index = input index * stride + kernel index -
pad_begin, no kernel flip), with weights [Cin, Cout, kh, kw] and an optional bias [Cout]: one node
between two layout transposes, no Add needed.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

# TFLite schema enums (tensorflow/lite/schema/schema.fbs): BuiltinOperator and TensorType values.
BUILTIN_CUSTOM = 32
BUILTIN_DEQUANTIZE = 6
PLACEHOLDER_FOR_GREATER_OP_CODES = 127
TENSOR_NUMPY = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8, 4: np.int64, 7: np.int16, 9: np.int8}

TRANSPOSE_CONV_BIAS = "Convolution2DTransposeBias"
# Custom ops this converter knows how to express in standard ONNX. "Flex" ops (TensorFlow ops
# carried by TFLite's select-ops mechanism) are tf2onnx's own business: it converts them from the
# TensorFlow node definition they carry, and whatever it cannot convert is caught after conversion.
KNOWN_CUSTOM_OPS = (TRANSPOSE_CONV_BIAS,)


@dataclass
class CustomOp:
    code: str
    subgraph: int
    index: int
    inputs: list[str]
    outputs: list[str]
    options: bytes


@dataclass
class TransposeConvOptions:
    padding: str  # "SAME" | "VALID"
    stride_h: int
    stride_w: int


def _opcode_name(model, i: int) -> tuple[int, str | None]:
    oc = model.OperatorCodes(i)
    code = oc.DeprecatedBuiltinCode()
    if code == PLACEHOLDER_FOR_GREATER_OP_CODES:
        code = oc.BuiltinCode()
    custom = oc.CustomCode()
    return code, (custom.decode() if custom is not None else None)


def load_model(path: str):
    """The flatbuffer root of a .tflite file (tf2onnx's generated reader, no interpreter)."""
    from tf2onnx.tflite import Model  # generated flatbuffer accessors, pinned with tf2onnx

    buf = bytearray(open(path, "rb").read())
    if len(buf) < 8 or buf[4:8] != b"TFL3":
        raise ValueError("not a TFLite flatbuffer (no TFL3 identifier)")
    return Model.Model.GetRootAsModel(buf, 0)


def custom_ops(model) -> list[CustomOp]:
    """Every CUSTOM operator in every subgraph, with its tensor names and raw options."""
    codes = [_opcode_name(model, i) for i in range(model.OperatorCodesLength())]
    found: list[CustomOp] = []
    for s in range(model.SubgraphsLength()):
        g = model.Subgraphs(s)
        name = lambda t: g.Tensors(t).Name().decode() if t >= 0 else ""  # noqa: E731
        for j in range(g.OperatorsLength()):
            op = g.Operators(j)
            code, custom = codes[op.OpcodeIndex()]
            if code != BUILTIN_CUSTOM:
                continue
            found.append(
                CustomOp(
                    code=custom or "<unnamed>",
                    subgraph=s,
                    index=j,
                    inputs=[name(op.Inputs(k)) for k in range(op.InputsLength())],
                    outputs=[name(op.Outputs(k)) for k in range(op.OutputsLength())],
                    options=op.CustomOptionsAsNumpy().tobytes() if not op.CustomOptionsIsNone() else b"",
                )
            )
    return found


def constant_tensor(model, subgraph: int, tensor_name: str) -> np.ndarray:
    """A constant tensor's values as float32, looking through a DEQUANTIZE (fp16 weights)."""
    g = model.Subgraphs(subgraph)
    by_name = {g.Tensors(t).Name().decode(): t for t in range(g.TensorsLength())}
    t = by_name[tensor_name]
    for _ in range(2):  # the tensor itself, or the input of the DEQUANTIZE that produces it
        tensor = g.Tensors(t)
        data = model.Buffers(tensor.Buffer()).DataAsNumpy() if tensor.Buffer() > 0 else 0
        if not isinstance(data, int) and data.size > 0:
            dtype = TENSOR_NUMPY[tensor.Type()]
            return np.frombuffer(data.tobytes(), dtype=dtype).reshape(tensor.ShapeAsNumpy()).astype(np.float32)
        producer = None
        for j in range(g.OperatorsLength()):
            op = g.Operators(j)
            if any(op.Outputs(k) == t for k in range(op.OutputsLength())):
                producer = op
        if producer is None or _opcode_name(model, producer.OpcodeIndex())[0] != BUILTIN_DEQUANTIZE:
            break
        t = producer.Inputs(0)
    raise ValueError(f"{tensor_name} is not a constant tensor")


def transpose_conv_options(raw: bytes) -> TransposeConvOptions:
    if len(raw) < 12:
        raise ValueError(f"{TRANSPOSE_CONV_BIAS} options are {len(raw)} bytes, 12 expected")
    padding, stride_w, stride_h = struct.unpack("<iii", raw[:12])
    if padding not in (1, 2) or stride_w < 1 or stride_h < 1:
        raise ValueError(f"{TRANSPOSE_CONV_BIAS} options padding {padding} stride {stride_w}x{stride_h} not understood")
    return TransposeConvOptions("SAME" if padding == 1 else "VALID", stride_h, stride_w)


def conv_transpose_attributes(in_hw: tuple[int, int], kernel_hw: tuple[int, int], o: TransposeConvOptions) -> dict:
    """ConvTranspose attributes (pads [top, left, bottom, right], strides) giving MediaPipe's output."""
    pads_begin, pads_end = [], []
    for size, k, s in zip(in_hw, kernel_hw, (o.stride_h, o.stride_w)):
        total = max(0, k - (size - 1) % s - 1) if o.padding == "SAME" else 0
        pads_begin.append(total // 2)
        pads_end.append(total - total // 2)
    return {"kernel_shape": list(kernel_hw), "strides": [o.stride_h, o.stride_w], "pads": pads_begin + pads_end}


def reference_transpose_conv_bias(x: np.ndarray, w_ohwi: np.ndarray, bias: np.ndarray, o: TransposeConvOptions) -> np.ndarray:
    """The op computed directly from its definition (scatter form), in float64: the independent
    reference the ONNX rewrite is checked against."""
    n, h, w, _ = x.shape
    cout, kh, kw, _ = w_ohwi.shape
    a = conv_transpose_attributes((h, w), (kh, kw), o)
    top, left, bottom, right = a["pads"]
    full_h, full_w = o.stride_h * (h - 1) + kh, o.stride_w * (w - 1) + kw
    y = np.zeros((n, full_h, full_w, cout), np.float64)
    for fy in range(kh):
        for fx in range(kw):
            # Every input pixel lands at (iy*sh + fy, ix*sw + fx) of the unpadded output.
            contrib = np.einsum("nhwc,oc->nhwo", x.astype(np.float64), w_ohwi[:, fy, fx, :].astype(np.float64))
            y[:, fy : fy + o.stride_h * h : o.stride_h, fx : fx + o.stride_w * w : o.stride_w, :] += contrib
    y = y[:, top : full_h - bottom, left : full_w - right, :]
    return y + bias.astype(np.float64)


def onnx_rewrite_model(x_shape, w_ohwi: np.ndarray, bias: np.ndarray, o: TransposeConvOptions):
    """A one-op ONNX model of exactly the rewrite the converter applies (NHWC in and out)."""
    from onnx import TensorProto, helper, numpy_helper

    n, h, w, cin = x_shape
    cout, kh, kw, _ = w_ohwi.shape
    attrs = conv_transpose_attributes((h, w), (kh, kw), o)
    nodes = [
        helper.make_node("Transpose", ["x"], ["x_nchw"], perm=[0, 3, 1, 2]),
        helper.make_node("Transpose", ["w_ohwi"], ["w_iohw"], perm=[3, 0, 1, 2]),
        helper.make_node("ConvTranspose", ["x_nchw", "w_iohw", "bias"], ["y_nchw"], **attrs),
        helper.make_node("Transpose", ["y_nchw"], ["y"], perm=[0, 2, 3, 1]),
    ]
    graph = helper.make_graph(
        nodes,
        "transpose_conv_bias",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(w_ohwi.astype(np.float32), "w_ohwi"), numpy_helper.from_array(bias.astype(np.float32), "bias")],
    )
    # IR 8 is the version of opset 17; onnx's default (its newest) can be newer than ONNX Runtime reads.
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def tf2onnx_handler(options_by_output: dict[str, TransposeConvOptions]):
    """A tf2onnx custom-op handler turning TFL_Convolution2DTransposeBias nodes into ConvTranspose.

    tf2onnx cannot read the op's options (a raw struct, not a flexbuffer), so they come from the
    .tflite file, keyed by the node's output tensor name. The handler runs before tf2onnx's
    optimizers, which then cancel the layout transposes against their neighbours'."""

    def handle(ctx, node, name, args):  # tf2onnx's (ctx, node, name, args) handler signature
        out = node.output[0]
        o = options_by_output.get(out)
        if o is None:
            raise ValueError(f"{TRANSPOSE_CONV_BIAS} producing {out}: options not found in the .tflite file")
        x_shape = ctx.get_shape(node.input[0])
        w_shape = ctx.get_shape(node.input[1])
        if x_shape is None or w_shape is None or len(x_shape) != 4 or len(w_shape) != 4 or min(x_shape[1:3] + w_shape[1:3]) < 1:
            raise ValueError(f"{TRANSPOSE_CONV_BIAS} producing {out}: needs static input and kernel shapes")
        attrs = conv_transpose_attributes((x_shape[1], x_shape[2]), (w_shape[1], w_shape[2]), o)
        ctx.insert_new_node_on_input(node, "Transpose", node.input[0], perm=[0, 3, 1, 2], input_index=0)
        ctx.insert_new_node_on_input(node, "Transpose", node.input[1], perm=[3, 0, 1, 2], input_index=1)
        node.type = "ConvTranspose"
        node.domain = ""
        for key in list(node.attr.keys()):
            del node.attr[key]
        for key, value in attrs.items():
            node.set_attr(key, value)
        # The NHWC result keeps the tensor name `out` (consumers and graph outputs refer to it):
        # ConvTranspose writes an NCHW tensor of a new name, a Transpose turns it back into `out`.
        dtype, shape = ctx.get_dtype(out), ctx.get_shape(out)
        nchw = f"{node.name}__nchw:0"
        node.output = [nchw]
        ctx.set_dtype(nchw, dtype)
        if shape is not None and len(shape) == 4:
            ctx.set_shape(nchw, [shape[0], shape[3], shape[1], shape[2]])
        ctx.make_node("Transpose", [nchw], attr={"perm": [0, 2, 3, 1]}, outputs=[out],
                      shapes=[shape] if shape is not None else None, dtypes=[dtype])
        return node

    return handle
