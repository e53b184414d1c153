"""The engine tests' ExecuTorch programs (test/fixtures/executorch/), made from a small network
with fixed weights, and what PyTorch computes for them on a known input.

    .cache/torch-venv/bin/python tools/executorch/make_test_programs.py test/fixtures/executorch

Writes:
  tiny_xnnpack.pte   the network lowered with ExecuTorch's XNNPACK partitioner: the convolutions
                     and the linear layer become XNNPACK delegate calls, argmax and the float16
                     cast stay on ExecuTorch's CPU kernels (placement the tests check)
  tiny_portable.pte  the same network without a delegate: every operator a kernel call
  tiny_xnnpack_unplanned.pte
                     tiny_xnnpack.pte with no memory planned for its outputs
                     (alloc_graph_output=False): the runtime writes them where the engine says
  tiny_expected.json the input the tests feed (a 32x32 rgb8 frame, stretched 1:1, scaled 1/255)
                     and PyTorch's eager outputs for it

Committed (a few kilobytes each): the engine tests need no torch. Run again only when the
network or ExecuTorch's version changes (tools/executorch/requirements-export.txt).
"""
import importlib.metadata
import json
import sys
from pathlib import Path

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
from executorch.exir.passes import MemoryPlanningPass

SIZE = 32


class Tiny(torch.nn.Module):
    """Two outputs of float32 and int64, one of float16: every type the engine widens or keeps."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 4, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(4, 5)

    def forward(self, x):
        y = torch.relu(self.conv1(x))
        maps = self.conv2(y)  # [1, 4, 8, 8]
        pooled = maps.mean(dim=(2, 3))
        scores = self.fc(pooled)  # [1, 5]
        return scores, torch.argmax(scores, dim=1), maps.to(torch.float16)


def frame_pixels():
    """The rgb8 frame the tests build: byte (y * SIZE + x) * 3 + c is (that index * 7) % 251."""
    n = SIZE * SIZE * 3
    return [(i * 7) % 251 for i in range(n)]


def main(out_dir: Path):
    torch.manual_seed(20261202)
    model = Tiny().eval()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p) * 0.5)
    pixels = torch.tensor(frame_pixels(), dtype=torch.float32).reshape(SIZE, SIZE, 3)
    x = (pixels / 255.0).permute(2, 0, 1).unsqueeze(0).contiguous()
    exported = torch.export.export(model, (x,))
    out_dir.mkdir(parents=True, exist_ok=True)
    xnnpack = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()]).to_executorch()
    (out_dir / "tiny_xnnpack.pte").write_bytes(xnnpack.buffer)
    unplanned = to_edge_transform_and_lower(
        torch.export.export(model, (x,)), partitioner=[XnnpackPartitioner()]
    ).to_executorch(ExecutorchBackendConfig(memory_planning_pass=MemoryPlanningPass(alloc_graph_output=False)))
    (out_dir / "tiny_xnnpack_unplanned.pte").write_bytes(unplanned.buffer)
    portable = to_edge_transform_and_lower(torch.export.export(model, (x,))).to_executorch()
    (out_dir / "tiny_portable.pte").write_bytes(portable.buffer)
    with torch.no_grad():
        scores, best, maps = model(x)
    expected = {
        "frame": {"width": SIZE, "height": SIZE, "encoding": "rgb8", "pixels": "(i * 7) % 251"},
        "outputs": [
            {"name": "output_0", "dims": list(scores.shape), "type": "float32", "values": scores.flatten().tolist()},
            {"name": "output_1", "dims": list(best.shape), "type": "int64", "values": best.flatten().tolist()},
            {"name": "output_2", "dims": list(maps.shape), "type": "float16", "values": maps.float().flatten().tolist()},
        ],
        "made_with": {"torch": torch.__version__, "executorch": importlib.metadata.version("executorch")},
    }
    (out_dir / "tiny_expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
