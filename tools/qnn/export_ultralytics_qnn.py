"""Exports an Ultralytics checkpoint for a QCS6490's HTP with Ultralytics' own exporter
(format=qnn name=68: ONNX Runtime's QNN QDQ flow to W8A16, the QNN provider compiling a context
binary for Hexagon v68, embedded in <stem>_qnn.onnx, channel-last input), as a YOLO user would,
and puts <stem>_qnn.onnx and the FP32 channel-last <stem>.onnx the exporter quantized from into
OUT_DIR (bootstrap step 77; the torch venv's Python).

Calibration is on local photos: the exporter's default data=coco8.yaml downloads a dataset. The
photos are given to it as a dataset of its own (a data YAML over a folder of images, no labels).

    .cache/torch-venv/bin/python tools/qnn/export_ultralytics_qnn.py PT PHOTO_DIR OUT_DIR [IMGSZ]
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png"}


def calibration_dataset(photos: Path, folder: Path, names: dict) -> Path:
    images = folder / "images"
    images.mkdir(parents=True)
    found = sorted(p for p in photos.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not found:
        sys.exit(f"{photos}: no photos to calibrate on")
    for p in found:
        shutil.copyfile(p, images / p.name)
    lines = [f"path: {folder}", "train: images", "val: images", "names:"]
    lines += [f"  {i}: {n}" for i, n in sorted(names.items())]
    data = folder / "data.yaml"
    data.write_text("\n".join(lines) + "\n")
    return data


def main(pt: Path, photos: Path, out_dir: Path, imgsz: int) -> None:
    # Nothing from the network, settings kept out of the home folder.
    os.environ.setdefault("YOLO_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="htp-qnn-export-") as tmp:
        os.environ.setdefault("YOLO_CONFIG_DIR", tmp)
        from ultralytics import YOLO

        # The exporter writes beside the checkpoint: a copy in the temporary folder.
        work = Path(tmp) / "model" / pt.name
        work.parent.mkdir()
        shutil.copyfile(pt, work)
        model = YOLO(str(work))
        data = calibration_dataset(photos, Path(tmp) / "calibration", model.names)
        exported = Path(model.export(format="qnn", name="68", imgsz=imgsz, data=str(data), batch=1))
        source = exported.with_name(f"{work.stem}.onnx")
        if not source.is_file():
            sys.exit(f"the exporter left no {source.name} beside {exported.name}")
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(exported, out_dir / exported.name)
        shutil.copyfile(source, out_dir / source.name)
        print(f"exported {exported.name} and {source.name} into {out_dir}")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) == 5 else 640)
