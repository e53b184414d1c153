"""Ultralytics' own predictions on the bootstrap photos, written as the fixture the models lane's
accuracy test compares our pipeline with (issue 40). Bench venv only: run it through
bench/tools/ultralytics-fixture.sh (`npm run fixture:ultralytics`), never from `npm test`.

  ultralytics_fixture.py --out FILE.json --command TEXT --photos DIR NAME=FILE.onnx:TASK [...]

Each model is the original Ultralytics export (end to end, its NMS inside), run by Ultralytics'
own predict() on each photo given as a file path: Ultralytics reads, letterboxes, runs and maps
back itself (conf 0.25 and the export's own NMS, imgsz 640, CPU, retina_masks so masks come at the
photo's size). The JSON holds a header (the command, date, CPU, the Python packages' versions,
each photo's and model's SHA-256) and per model and photo the detections: corner box in source
pixels (2 decimals), score (5 decimals), class index and, for segment, the instance mask as its
bounding region and the run lengths of the region's rows (alternating 0 and 1 runs, starting
with 0) in COCO's compressed RLE string (each run minus the run two before it, 5 bits a
character), which keeps the file small without an image library on the reading side.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import sys
import tempfile
from importlib import metadata

# Before ultralytics is imported: settings go to a throwaway folder and nothing reaches the network.
os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="htp-ultra-fixture-"))
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_VERBOSE", "False")

import numpy as np  # noqa: E402
from ultralytics import YOLO  # noqa: E402
from ultralytics import settings  # noqa: E402
# The benchmark's own run-length encoding of a mask (this script's folder is on sys.path).
from ultralytics_reference import run_lengths  # noqa: E402

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def rle_string(runs):
    """COCO's rleToString: from the third run on, each minus the run two before it (rows of a
    region repeat their lengths, so the differences are small), then 5 bits a character from '0',
    0x20 meaning another character follows, sign-extended from the last character's 0x10."""
    out = []
    for i, run in enumerate(runs):
        x = run - runs[i - 2] if i > 2 else run
        more = True
        while more:
            c = x & 0x1F
            x >>= 5  # arithmetic: a negative x ends at -1
            more = (x != -1) if (c & 0x10) else (x != 0)
            if more:
                c |= 0x20
            out.append(chr(c + 48))
    return "".join(out)


def encode_mask(mask):
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return {"x": 0, "y": 0, "width": 0, "height": 0, "rle": ""}
    x1, x2, y1, y2 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    return {"x": x1, "y": y1, "width": x2 - x1, "height": y2 - y1,
            "rle": rle_string(run_lengths(mask[y1:y2, x1:x2]))}


def one_detection_a_line(fixture):
    """Indented JSON with each detection compact on one line: a regenerated fixture diffs by
    detection, and boxes and masks do not take a line per number."""
    compact = []

    def swap(value):
        if isinstance(value, dict) and "classId" in value:
            compact.append(json.dumps(value, separators=(",", ":")))
            return f"@@{len(compact) - 1}@@"
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(fixture), indent=1)
    for i, c in enumerate(compact):
        text = text.replace(f'"@@{i}@@"', c, 1)
    return text + "\n"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--command", required=True, help="the command line recorded in the header")
    p.add_argument("--photos", required=True)
    p.add_argument("--conf", type=float, default=0.25)
    p.add_argument("models", nargs="+", help="NAME=FILE.onnx:detect|segment")
    args = p.parse_args()
    settings.update({"sync": False})
    names = sorted(f for f in os.listdir(args.photos) if f.lower().endswith(PHOTO_SUFFIXES))
    if not names:
        raise SystemExit(f"no photos in {args.photos}")
    photos = [os.path.join(args.photos, n) for n in names]
    header_photos = []
    models = {}
    for spec in args.models:
        name, rest = spec.split("=", 1)
        file, task = rest.rsplit(":", 1)
        model = YOLO(file, task=task)
        results = []
        for path in photos:
            r = model.predict(path, imgsz=640, conf=args.conf, device="cpu", half=False,
                              verbose=False, retina_masks=True)[0]
            h, w = r.orig_shape
            if len(header_photos) < len(photos):
                header_photos.append({"name": os.path.basename(path), "sha256": sha256(path),
                                      "width": int(w), "height": int(h)})
            masks = r.masks.data.cpu().numpy() > 0.5 if task == "segment" and r.masks is not None else None
            dets = []
            for i in range(len(r.boxes)):
                d = {"box": [round(float(v), 2) for v in r.boxes.xyxy[i].tolist()],
                     "score": round(float(r.boxes.conf[i]), 5),
                     "classId": int(r.boxes.cls[i])}
                if masks is not None:
                    d["mask"] = encode_mask(masks[i])
                dets.append(d)
            results.append({"photo": os.path.basename(path), "detections": dets})
        models[name] = {"file": os.path.basename(file), "sha256": sha256(file), "task": task,
                        "results": results}
    fixture = {
        "what": "Ultralytics' own predict() on the bootstrap photos: the reference "
                "test/integration/models/ultralyticsAccuracy.test.ts holds our pipeline to",
        "command": args.command,
        "generator": "bench/tools/ultralytics_fixture.py",
        "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "cpu": cpu_model(),
        "versions": {
            "python": platform.python_version(),
            **{k: version(k) for k in ("ultralytics", "torch", "onnxruntime", "numpy",
                                       "opencv-python-headless")},
        },
        "predict": {"imgsz": 640, "conf": args.conf, "device": "cpu", "half": False,
                    "retina_masks": True, "nms": "the export's own (inside the ONNX graph)"},
        "maskEncoding": "bounding region x, y, width, height; run lengths of its rows "
                        "(alternating 0 and 1, starting with 0) as COCO's compressed RLE string",
        "photos": header_photos,
        "models": models,
    }
    with open(args.out, "w") as f:
        f.write(one_detection_a_line(fixture))
    return 0


if __name__ == "__main__":
    sys.exit(main())
