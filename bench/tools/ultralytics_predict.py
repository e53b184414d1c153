"""Ultralytics predict() on the bench's photos, for `npm run bench:e2e` (bench venv only).

  ultralytics_predict.py --model FILE(.pt|.onnx) --width W --height H --frames N --warmup K
                         [--conf C --iou I] FILE.rgb [FILE.rgb ...]

The same packed rgb8 files the ROS publisher sends, handed to predict() as the BGR numpy arrays
OpenCV-based ROS nodes (cv_bridge) give it, one image per call, on the CPU. Prints one JSON object:
per call the wall time of predict() and Ultralytics' own per-stage times (results[0].speed:
preprocess, inference, postprocess in ms), and the number of boxes.
"""
import argparse
import json
import os
import sys
import tempfile
import time

# Before ultralytics is imported: its settings file goes to a throwaway folder, and it must not
# try the network (version checks, telemetry): the bench machine reaches package registries only.
os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="htp-e2e-yolo-"))
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_VERBOSE", "False")

import numpy as np  # noqa: E402
from ultralytics import YOLO  # noqa: E402
from ultralytics import settings  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True)
    p.add_argument("--width", type=int, required=True)
    p.add_argument("--height", type=int, required=True)
    p.add_argument("--frames", type=int, required=True)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--conf", type=float, default=0.25)
    p.add_argument("--iou", type=float, default=0.7)
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    settings.update({"sync": False})
    images = []
    for f in args.files:
        rgb = np.fromfile(f, dtype=np.uint8)
        if rgb.size != args.width * args.height * 3:
            raise SystemExit(f"{f}: {rgb.size} bytes, expected {args.width}x{args.height}x3")
        images.append(np.ascontiguousarray(rgb.reshape(args.height, args.width, 3)[:, :, ::-1]))
    model = YOLO(args.model, task="detect")
    kw = dict(imgsz=640, conf=args.conf, iou=args.iou, device="cpu", half=False, verbose=False)
    for i in range(args.warmup):
        model.predict(images[i % len(images)], **kw)
    rows = []
    for i in range(args.frames):
        t0 = time.perf_counter()
        r = model.predict(images[i % len(images)], **kw)[0]
        total = (time.perf_counter() - t0) * 1000
        s = r.speed
        rows.append([total, s["preprocess"], s["inference"], s["postprocess"], len(r.boxes)])
    cols = list(zip(*rows))
    print(json.dumps({
        "model": os.path.basename(args.model),
        "width": args.width,
        "height": args.height,
        "total_ms": cols[0],
        "preprocess_ms": cols[1],
        "inference_ms": cols[2],
        "postprocess_ms": cols[3],
        "boxes": cols[4],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
