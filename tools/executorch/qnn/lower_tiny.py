"""Lower a tiny Conv2d+ReLU to a QNN-delegated .pte (HTP v68 / QCM6490) and try to run it.

Usage (README.md says how QNN_SDK_ROOT is laid out from the onnxruntime-qnn wheel):
  export QNN_SDK_ROOT=... LD_LIBRARY_PATH=$QNN_SDK_ROOT/lib/x86_64-linux-clang
  env -u PYTHONPATH -u PYTHONHOME .cache/torch-venv/bin/python tools/executorch/qnn/lower_tiny.py \
    OUT_DIR [--fp16] [--soc QCM6490] [--debug] [--run-only]
"""
import argparse
import os
import sys
import time

import torch

OUT = ""  # OUT_DIR/tiny_qnn.pte
REF = ""  # OUT_DIR/tiny_qdq_ref.pt: output of the pt2e Q/DQ (simulated-quant) model


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.conv(x))


def lower(args, model, example):
    from executorch.backends.qualcomm.quantizer.quantizer import QnnQuantizer, QuantDtype
    from executorch.backends.qualcomm.serialization.qc_schema import (
        QcomChipset,
        QnnExecuTorchBackendType,
    )
    from executorch.backends.qualcomm.utils.utils import (
        generate_htp_compiler_spec,
        generate_qnn_executorch_compiler_spec,
        get_qnn_context_binary_alignment,
        to_edge_transform_and_lower_to_qnn,
    )
    from executorch.exir.capture._config import ExecutorchBackendConfig
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    soc = getattr(QcomChipset, args.soc)
    if args.fp16:
        to_lower = model
    else:
        q = QnnQuantizer(backend=QnnExecuTorchBackendType.kHtpBackend, soc_model=soc)
        q.set_default_quant_config(QuantDtype.use_8a8w, is_conv_per_channel=True)
        gm = torch.export.export(model, example, strict=False).module()
        prepared = prepare_pt2e(gm, q)
        with torch.no_grad():
            for _ in range(8):
                prepared(torch.rand(1, 3, 32, 32))
            prepared(*example)
        to_lower = convert_pt2e(prepared)
        with torch.no_grad():
            torch.save({"qdq_ref": to_lower(*example)}, REF)

    backend_options = generate_htp_compiler_spec(use_fp16=args.fp16)
    compile_spec = generate_qnn_executorch_compiler_spec(
        soc_model=soc, backend_options=backend_options, debug=args.debug
    )
    t = time.time()
    edge = to_edge_transform_and_lower_to_qnn(to_lower, example, compile_spec)
    print("lowered in %.1fs" % (time.time() - t))
    print(edge.exported_program().graph_module.graph)
    et = edge.to_executorch(
        config=ExecutorchBackendConfig(segment_alignment=get_qnn_context_binary_alignment())
    )
    with open(OUT, "wb") as f:
        et.write_to_file(f)
    print("wrote", OUT, os.path.getsize(OUT), "bytes")


def run(model, example):
    from executorch.extension.pybindings import portable_lib as pl

    print("registered backends:", pl._get_registered_backend_names())
    m = pl._load_for_executorch(OUT)
    out = m.forward([example[0]])[0]
    ref = model(*example)
    print("et out", tuple(out.shape), out.dtype)
    d = (out.float() - ref).abs()
    print("max abs diff vs eager fp32: %.6f (mean %.6f); eager range [%.4f, %.4f]"
          % (d.max().item(), d.mean().item(), ref.min().item(), ref.max().item()))
    if os.path.exists(REF):
        q = torch.load(REF)["qdq_ref"]
        dq = (out.float() - q).abs()
        print("max abs diff vs pt2e Q/DQ reference: %.6f (mean %.6f); Q/DQ-vs-eager max %.6f"
              % (dq.max().item(), dq.mean().item(), (q - ref).abs().max().item()))


def main():
    global OUT, REF
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--fp16", action="store_true")
    ap.add_argument("--soc", default="QCM6490")
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--run-only", action="store_true")
    ap.add_argument("--no-run", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    OUT = os.path.join(args.out_dir, "tiny_qnn.pte")
    REF = os.path.join(args.out_dir, "tiny_qdq_ref.pt")

    torch.manual_seed(0)
    model = Tiny().eval()
    example = (torch.rand(1, 3, 32, 32),)
    print("QNN_SDK_ROOT=", os.environ.get("QNN_SDK_ROOT"), " LD_LIBRARY_PATH=", os.environ.get("LD_LIBRARY_PATH"))
    if not args.run_only:
        if os.path.exists(REF):
            os.remove(REF)
        lower(args, model, example)
    if not args.no_run:
        run(model, example)


if __name__ == "__main__":
    sys.exit(main())
