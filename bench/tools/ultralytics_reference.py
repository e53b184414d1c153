"""Ultralytics' own predict() on photos, as the reference `npm run bench:ultralytics` compares our
pipeline with (the torch venv: tools/torch/ensure-torch-venv.sh).

  ultralytics_reference.py --model FILE.onnx --task detect|segment [--conf C] PHOTO [PHOTO ...]

Each photo goes to predict() as a file path, so Ultralytics reads, letterboxes and maps it back
itself. Prints one JSON object: per photo its size and detections (corner box in source pixels,
score, class index) and, for segment, each instance's mask at the photo's size (retina_masks) as
its bounding region and the run lengths of that region's rows (alternating 0 and 1 runs, starting
with 0), so the comparison needs no image library.
"""
import argparse
import json
import os
import sys
import tempfile

# Before ultralytics is imported: settings go to a throwaway folder and nothing reaches the network.
os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="htp-ultra-ref-"))
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_VERBOSE", "False")

import numpy as np  # noqa: E402
from ultralytics import YOLO  # noqa: E402
from ultralytics import settings  # noqa: E402


def run_lengths(region):
    flat = region.reshape(-1).astype(np.uint8)
    if flat.size == 0:
        return []
    change = np.flatnonzero(np.diff(flat)) + 1
    bounds = np.concatenate(([0], change, [flat.size]))
    runs = np.diff(bounds).tolist()
    return runs if flat[0] == 0 else [0] + runs


def encode_mask(mask):
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return {"x": 0, "y": 0, "width": 0, "height": 0, "runs": []}
    x1, x2, y1, y2 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    return {"x": x1, "y": y1, "width": x2 - x1, "height": y2 - y1,
            "runs": run_lengths(mask[y1:y2, x1:x2])}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True)
    p.add_argument("--task", required=True, choices=["detect", "segment"])
    p.add_argument("--conf", type=float, default=0.25)
    p.add_argument("photos", nargs="+")
    args = p.parse_args()
    settings.update({"sync": False})
    model = YOLO(args.model, task=args.task)
    out = []
    for f in args.photos:
        r = model.predict(f, imgsz=640, conf=args.conf, device="cpu", half=False, verbose=False,
                          retina_masks=True)[0]
        h, w = r.orig_shape
        dets = []
        boxes = r.boxes
        masks = None
        if args.task == "segment" and r.masks is not None:
            masks = r.masks.data.cpu().numpy() > 0.5
        for i in range(len(boxes)):
            x1, y1, x2, y2 = (float(v) for v in boxes.xyxy[i].tolist())
            d = {"box": [x1, y1, x2, y2], "score": float(boxes.conf[i]), "classId": int(boxes.cls[i])}
            if masks is not None:
                d["mask"] = encode_mask(masks[i])
            dets.append(d)
        out.append({"file": f, "width": int(w), "height": int(h), "detections": dets})
    json.dump({"model": os.path.basename(args.model), "task": args.task, "conf": args.conf,
               "photos": out}, sys.stdout)


if __name__ == "__main__":
    main()
