"""Writes the tiny .tflite files the `model import` tests use (test/fixtures/tflite/, checked in,
each a few kB), made with the tools venv's TensorFlow:

  tiny-classifier.tflite    input [1,32,32,3] float32 -> conv, mean, dense -> [1,10]: a layout
                            model import does not know (converted, then a draft manifest, exit 2)
  unknown-custom-op.tflite  the same graph with its MEAN operator turned into a CUSTOM operator
                            named HtpTestUnknownOp (refused before conversion, naming it)
  vector-input.tflite       input [1,16] float32 -> dense -> [1,4]: not an image, so the
                            conversion check cannot feed it (refused with that reason)

usage: make_tflite_fixtures.py OUT_DIR
"""
from __future__ import annotations

import os
import pathlib
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.lite.python import schema_py_generated as schema  # noqa: E402
from tensorflow.lite.tools import flatbuffer_utils  # noqa: E402

UNKNOWN_OP = "HtpTestUnknownOp"


def convert(fn, spec) -> bytes:
    concrete = tf.function(fn, input_signature=[spec]).get_concrete_function()
    return tf.lite.TFLiteConverter.from_concrete_functions([concrete]).convert()


def classifier() -> bytes:
    rng = np.random.default_rng(17)
    k = tf.constant(rng.normal(0, 0.3, (3, 3, 3, 4)).astype(np.float32))
    w = tf.constant(rng.normal(0, 0.3, (4, 10)).astype(np.float32))

    def fn(x):
        y = tf.nn.relu(tf.nn.conv2d(x, k, strides=1, padding="SAME"))
        return tf.nn.softmax(tf.matmul(tf.reduce_mean(y, axis=[1, 2]), w))

    return convert(fn, tf.TensorSpec([1, 32, 32, 3], tf.float32, name="image_in"))


def vector_input() -> bytes:
    w = tf.constant(np.random.default_rng(18).normal(0, 0.3, (16, 4)).astype(np.float32))
    return convert(lambda x: tf.matmul(x, w), tf.TensorSpec([1, 16], tf.float32, name="features"))


def with_custom_op(data: bytes) -> bytes:
    """Replaces the MEAN operator's code with a CUSTOM one no converter knows."""
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(data))
    mean = schema.BuiltinOperator.MEAN
    codes = model.operatorCodes
    index = next(i for i, c in enumerate(codes) if max(c.builtinCode, c.deprecatedBuiltinCode) == mean)
    custom = schema.OperatorCodeT()
    custom.builtinCode = custom.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    custom.customCode = UNKNOWN_OP
    custom.version = 1
    codes[index] = custom
    for op in model.subgraphs[0].operators:
        if op.opcodeIndex == index:
            op.builtinOptionsType, op.builtinOptions = 0, None
    return bytes(flatbuffer_utils.convert_object_to_bytearray(model))


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    tiny = classifier()
    files = {
        "tiny-classifier.tflite": tiny,
        "unknown-custom-op.tflite": with_custom_op(tiny),
        "vector-input.tflite": vector_input(),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(f"wrote {out / name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
