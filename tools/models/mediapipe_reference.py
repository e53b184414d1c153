"""MediaPipe's TFLite models run by TensorFlow's TFLite interpreter on the crops our pipelines cut,
for `npm run bench:mediapipe` (bench/src/mediapipeAccuracy.ts): the reference our landmarks and
masks are measured against.

  mediapipe_reference.py < request.json > answer.json

request: {"tflite": PATH, "kind": "blazepose" | "selfie",
          "items": [{"photo": PATH, "affine": [a, b, c, d, e, f]}]}   (blazepose: one per crop)
          [{"photo": PATH}]                                          (selfie: the whole photo)
The affine maps continuous source coordinates (pixel i covers [i, i + 1)) to input coordinates,
x = a*u + b*v + c, y = d*u + e*v + f, as src/heads/planHrnetCrop.ts plans it; outside the image
is black. answer: {"reference": ..., "items": [...]}: blazepose items hold "landmarks" (33 x [u, v,
sigmoid(visibility)] in source pixels) and "personScore", and "aligned": the same from the crop
rotated as MediaPipe aligns it (its landmarks 33 -> 34 upright), with "rotationDeg"; selfie items hold "mask" (base64, one
byte per source pixel, 1 where the probability is at least 0.5), "width", "height".
"""
import base64
import json
import sys

import cv2
import numpy as np

from common import read_rgb


def interpreter(path: str):
    import tensorflow as tf

    it = tf.lite.Interpreter(model_path=path)
    it.allocate_tensors()
    return it, tf.__version__


def run(it, x: np.ndarray) -> dict:
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], x)
    it.invoke()
    return {o["name"]: it.get_tensor(o["index"]) for o in it.get_output_details()}


def landmarks_on(it, rgb: np.ndarray, affine) -> tuple[np.ndarray, float]:
    """39 landmarks (u, v, visibility) in source pixels from the crop `affine` cuts, and the
    person score."""
    h, w = it.get_input_details()[0]["shape"][1:3]
    a, b, c, d, e, f = affine
    # cv2 puts pixel i's centre at i; the plan's continuous coordinates put it at i + 0.5.
    m = np.array([[a, b, c + 0.5 * (a + b) - 0.5], [d, e, f + 0.5 * (d + e) - 0.5]], dtype=np.float64)
    crop = cv2.warpAffine(rgb, m, (int(w), int(h)), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    out = run(it, (crop.astype(np.float32) / 255.0)[None])
    lm = out["Identity"].reshape(-1, 5).astype(np.float64)
    inv = np.linalg.inv(np.array([[a, b, c], [d, e, f], [0, 0, 1]], dtype=np.float64))
    pts = inv @ np.vstack([lm[:, 0], lm[:, 1], np.ones(len(lm))])
    vis = 1.0 / (1.0 + np.exp(-lm[:, 3]))
    return np.stack([pts[0], pts[1], vis], axis=1), float(out["Identity_1"].reshape(-1)[0])


def aligned_affine(affine, lm: np.ndarray, size: int) -> tuple[list[float], float]:
    """The same crop (centre, scale) rotated the way MediaPipe aligns its next crop: its auxiliary
    landmarks 33 (between the hips) and 34 (above the head) made vertical, head up."""
    a, _, c, _, e, f = affine
    width = size / a
    cx, cy = (size / 2 - c) / a, (size / 2 - f) / e
    vx, vy = lm[34, 0] - lm[33, 0], lm[34, 1] - lm[33, 1]
    delta = -np.pi / 2 - np.arctan2(vy, vx)
    delta = (delta + np.pi) % (2 * np.pi) - np.pi
    s = size / width
    r = np.array([[np.cos(delta), -np.sin(delta)], [np.sin(delta), np.cos(delta)]]) * s
    t = np.array([size / 2, size / 2]) - r @ np.array([cx, cy])
    return [r[0, 0], r[0, 1], t[0], r[1, 0], r[1, 1], t[1]], float(np.degrees(delta))


def blazepose(it, item: dict) -> dict:
    rgb = read_rgb(item["photo"])
    lm, score = landmarks_on(it, rgb, item["affine"])
    size = int(it.get_input_details()[0]["shape"][2])
    rotated, degrees = aligned_affine(item["affine"], lm, size)
    lm_r, score_r = landmarks_on(it, rgb, rotated)
    as_list = lambda x: [[float(u), float(v), float(s)] for u, v, s in x[:33]]
    return {"landmarks": as_list(lm), "personScore": score,
            "aligned": {"landmarks": as_list(lm_r), "personScore": score_r, "rotationDeg": degrees}}


def selfie(it, item: dict) -> dict:
    h, w = (int(v) for v in it.get_input_details()[0]["shape"][1:3])
    rgb = read_rgb(item["photo"])
    x = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    p = next(iter(run(it, x[None]).values())).reshape(h, w)
    sh, sw = rgb.shape[:2]
    # Each source pixel takes the input pixel its centre lands on (stretch), as our head does.
    cols = np.minimum(((np.arange(sw) + 0.5) * w / sw).astype(np.int64), w - 1)
    rows = np.minimum(((np.arange(sh) + 0.5) * h / sh).astype(np.int64), h - 1)
    mask = (p[rows][:, cols] >= 0.5).astype(np.uint8)
    return {"mask": base64.b64encode(mask.tobytes()).decode(), "width": sw, "height": sh}


def main() -> int:
    req = json.load(sys.stdin)
    it, version = interpreter(req["tflite"])
    fn = blazepose if req["kind"] == "blazepose" else selfie
    items = [fn(it, item) for item in req["items"]]
    json.dump({"reference": f"tf.lite.Interpreter (TensorFlow {version}, XNNPACK delegate)", "items": items}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
