"""Reference predictions for a YOLOv8 detection model in Ultralytics' packed layout [1, 4+C, N].

Runs the ORIGINAL model file shipped by the package with the onnxruntime Python package (the
package ships no TFLite, so LiteRT has nothing to run here) and decodes with an implementation
independent of our TypeScript heads: OpenCV's letterbox/resize and cv2.dnn.NMSBoxesBatched
(class-aware), following Ultralytics' conventions: conf 0.25, IoU 0.7, max 300, best class per box.

Writes one JSON per photo: {"photo", "width", "height", "detections": [{"class_id", "class_name",
"score", "box_xyxy"}]} with boxes in source-image pixels. With --compare <int8.onnx> also prints
and records the INT8 vs FP32 agreement.

usage: reference_yolo.py <model.onnx> <manifest.json> <photos dir> <out dir> [--compare int8.onnx]
"""
from __future__ import annotations

import argparse
import json
import pathlib

import cv2
import numpy as np
import onnxruntime as ort

from common import letterbox, list_photos, read_rgb, to_nchw_float

CONF, IOU, MAX_DET = 0.25, 0.7, 300


def detect(session: ort.InferenceSession, rgb: np.ndarray, size: int, names: list[str]) -> list[dict]:
    img, gain, left, top = letterbox(rgb, size)
    (out,) = session.run(None, {session.get_inputs()[0].name: to_nchw_float(img)})
    pred = out[0].T  # [N, 4 + C]
    scores_all = pred[:, 4:]
    cls = scores_all.argmax(1)
    score = scores_all[np.arange(len(cls)), cls]
    keep = score > CONF
    pred, cls, score = pred[keep], cls[keep], score[keep]
    xywh = pred[:, :4].astype(np.float64)
    x0 = xywh[:, 0] - xywh[:, 2] / 2
    y0 = xywh[:, 1] - xywh[:, 3] / 2
    rects = np.stack([x0, y0, xywh[:, 2], xywh[:, 3]], 1).tolist()
    idx = cv2.dnn.NMSBoxesBatched(rects, score.tolist(), cls.tolist(), CONF, IOU)
    idx = sorted(np.array(idx).reshape(-1).tolist(), key=lambda i: -score[i])[:MAX_DET]
    h, w = rgb.shape[:2]
    dets = []
    for i in idx:
        bx0 = (x0[i] - left) / gain
        by0 = (y0[i] - top) / gain
        bx1 = (x0[i] + xywh[i, 2] - left) / gain
        by1 = (y0[i] + xywh[i, 3] - top) / gain
        box = [float(np.clip(bx0, 0, w)), float(np.clip(by0, 0, h)), float(np.clip(bx1, 0, w)), float(np.clip(by1, 0, h))]
        dets.append({"class_id": int(cls[i]), "class_name": names[int(cls[i])], "score": float(score[i]), "box_xyxy": box})
    return dets


def iou(a: list[float], b: list[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def agreement(ref: list[dict], other: list[dict]) -> dict:
    """Greedy one-to-one matching, same class, best IoU first."""
    used, ious, dscore = set(), [], []
    for r in ref:
        best, bi = 0.0, -1
        for j, o in enumerate(other):
            if j in used or o["class_id"] != r["class_id"]:
                continue
            v = iou(r["box_xyxy"], o["box_xyxy"])
            if v > best:
                best, bi = v, j
        if bi >= 0 and best >= 0.5:
            used.add(bi)
            ious.append(best)
            dscore.append(abs(r["score"] - other[bi]["score"]))
    return {"ref": len(ref), "other": len(other), "matched": len(ious),
            "mean_iou": float(np.mean(ious)) if ious else None,
            "max_score_diff": float(np.max(dscore)) if dscore else None}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("manifest")
    ap.add_argument("photos")
    ap.add_argument("out")
    ap.add_argument("--compare")
    a = ap.parse_args()
    manifest = json.loads(pathlib.Path(a.manifest).read_text())
    names = manifest["classNames"]
    size = manifest["input"]["width"]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    fp32 = ort.InferenceSession(a.model, opts, providers=["CPUExecutionProvider"])
    int8 = ort.InferenceSession(a.compare, opts, providers=["CPUExecutionProvider"]) if a.compare else None
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = []
    for photo in list_photos(pathlib.Path(a.photos)):
        rgb = read_rgb(photo)
        dets = detect(fp32, rgb, size, names)
        rec = {"photo": photo.name, "width": rgb.shape[1], "height": rgb.shape[0],
               "model": pathlib.Path(a.model).name, "conf": CONF, "iou": IOU, "detections": dets}
        (out / f"{photo.stem}.json").write_text(json.dumps(rec, indent=1))
        line = {"photo": photo.name, "detections": len(dets)}
        if int8 is not None:
            line["int8_vs_fp32"] = agreement(dets, detect(int8, rgb, size, names))
        summary.append(line)
        print(json.dumps(line))
    (out / "summary.json").write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
