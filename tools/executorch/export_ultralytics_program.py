"""Exports an Ultralytics checkpoint to an ExecuTorch program with Ultralytics' own exporter
(format=executorch: torch.export, the XNNPACK partitioner, its metadata.yaml), as a user of
Ultralytics would, and puts the program and its metadata into OUT_DIR as <stem>.pte and
metadata.yaml (bootstrap step 76; the torch venv's Python).

    .cache/torch-venv/bin/python tools/executorch/export_ultralytics_program.py PT OUT_DIR [IMGSZ]
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path


def main(pt: Path, out_dir: Path, imgsz: int) -> None:
    # Nothing from the network, settings kept out of the home folder.
    os.environ.setdefault("YOLO_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="htp-export-") as tmp:
        os.environ.setdefault("YOLO_CONFIG_DIR", tmp)
        from ultralytics import YOLO

        # The exporter writes beside the checkpoint: a copy in the temporary folder.
        work = Path(tmp) / pt.name
        shutil.copyfile(pt, work)
        folder = Path(YOLO(str(work)).export(format="executorch", imgsz=imgsz))
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / "model.pte", out_dir / f"{pt.stem}.pte")
        shutil.copyfile(folder / "metadata.yaml", out_dir / "metadata.yaml")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) == 4 else 640)
