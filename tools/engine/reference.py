"""Independent references for the engine tests (numpy + the onnxruntime Python package).

Reads one JSON request on stdin: {"cases": [...]}; each case names a raw frame file, its geometry
and encoding, an optional roi, and a preprocessing spec; "model" (optional) runs the preprocessed
tensor through onnxruntime. Writes each result as raw little-endian bytes to case["out"], and
prints {"results": [{"transform": {...}}]}.
The resampling is written here from the definition (half-pixel centres, bilinear, clamped to the
crop), vectorised in numpy, with no code shared with the C++.
"""
import json
import sys

import numpy as np


def to_rgb(raw, c):
    w, h, step, enc = c["width"], c["height"], c["step"], c["encoding"]
    buf = np.frombuffer(raw, np.uint8)
    if enc == "nv12":
        y = buf[: h * step].reshape(h, step)[:, :w].astype(np.float64)
        uv = buf[h * step: h * step + (h // 2) * step].reshape(h // 2, step)[:, :w]
        u = np.repeat(np.repeat(uv[:, 0::2], 2, 0), 2, 1).astype(np.float64)
        v = np.repeat(np.repeat(uv[:, 1::2], 2, 0), 2, 1).astype(np.float64)
        return yuv(y, u, v)
    rows = buf[: h * step].reshape(h, step)
    if enc in ("rgb8", "bgr8"):
        px = rows[:, : w * 3].reshape(h, w, 3).astype(np.float64)
        return px if enc == "rgb8" else px[:, :, ::-1]
    if enc in ("rgba8", "bgra8"):
        px = rows[:, : w * 4].reshape(h, w, 4)[:, :, :3].astype(np.float64)
        return px if enc == "rgba8" else px[:, :, ::-1]
    if enc == "mono8":
        g = rows[:, :w].astype(np.float64)
        return np.stack([g, g, g], -1)
    pairs = rows[:, : w * 2].reshape(h, w // 2, 4).astype(np.float64)
    if enc in ("yuv422", "uyvy"):
        u, y0, v, y1 = (pairs[:, :, i] for i in range(4))
    else:  # yuyv
        y0, u, y1, v = (pairs[:, :, i] for i in range(4))
    y = np.stack([y0, y1], -1).reshape(h, w)
    return yuv(y, np.repeat(u, 2, 1), np.repeat(v, 2, 1))


def yuv(y, u, v):
    c, d, e = 1.164383 * (y - 16), u - 128, v - 128
    rgb = np.stack([c + 1.596027 * e, c - 0.391762 * d - 0.812968 * e, c + 2.017232 * d], -1)
    return np.clip(rgb, 0, 255)


def resize(img, nw, nh):
    h, w = img.shape[:2]
    def axis(n, src):
        s = np.clip((np.arange(n) + 0.5) * (src / n) - 0.5, 0, src - 1)
        i0 = np.floor(s).astype(int)
        return i0, np.minimum(i0 + 1, src - 1), (s - i0)
    x0, x1, fx = axis(nw, w)
    y0, y1, fy = axis(nh, h)
    top = img[y0][:, x0] * (1 - fx)[None, :, None] + img[y0][:, x1] * fx[None, :, None]
    bot = img[y1][:, x0] * (1 - fx)[None, :, None] + img[y1][:, x1] * fx[None, :, None]
    return top * (1 - fy)[:, None, None] + bot * fy[:, None, None]


def preprocess(raw, c):
    s = c["spec"]
    rgb = to_rgb(raw, c)
    r = c.get("roi") or {"x": 0, "y": 0, "width": c["width"], "height": c["height"]}
    crop = rgb[r["y"]: r["y"] + r["height"], r["x"]: r["x"] + r["width"]]
    W, H = s["width"], s["height"]
    if s["resize"] == "letterbox":
        k = min(W / r["width"], H / r["height"])
        nw, nh = max(1, min(W, round(r["width"] * k))), max(1, min(H, round(r["height"] * k)))
        px, py = (W - nw) // 2, (H - nh) // 2
    else:
        nw, nh, px, py = W, H, 0, 0
    canvas = np.full((H, W, 3), float(s["padValue"]))
    canvas[py: py + nh, px: px + nw] = resize(crop, nw, nh)
    if s["channels"] == 1:
        img = (canvas @ np.array([0.299, 0.587, 0.114]))[:, :, None]
    else:
        img = canvas[:, :, ::-1] if s["colorOrder"] == "bgr" else canvas
    img = (img - np.array(s["mean"][: img.shape[2]])) / np.array(s["std"][: img.shape[2]])
    if s["type"] != "float32":
        q = np.rint(img / s["qScale"]) + s["qZero"]
        lo, hi = (0, 255) if s["type"] == "uint8" else (-128, 127)
        img = np.clip(q, lo, hi).astype(np.uint8 if s["type"] == "uint8" else np.int8)
    else:
        img = img.astype(np.float32)
    if s["layout"] == "nchw":
        img = np.transpose(img, (2, 0, 1))
    transform = {"scaleX": nw / r["width"], "scaleY": nh / r["height"], "padX": px, "padY": py}
    return np.ascontiguousarray(img[None]), transform


def main():
    req = json.load(sys.stdin)
    results = []
    sessions = {}
    for c in req["cases"]:
        with open(c["frame"], "rb") as f:
            raw = f.read()
        tensor, transform = preprocess(raw, c)
        out = tensor
        if c.get("model"):
            import onnxruntime as ort
            if c["model"] not in sessions:
                so = ort.SessionOptions()
                so.intra_op_num_threads = 1
                sessions[c["model"]] = ort.InferenceSession(c["model"], so, providers=["CPUExecutionProvider"])
            sess = sessions[c["model"]]
            out = sess.run([c["output"]], {sess.get_inputs()[0].name: tensor})[0]
        with open(c["out"], "wb") as f:
            f.write(np.ascontiguousarray(out).tobytes())
        results.append({"transform": transform, "dims": list(out.shape)})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
