"""Frames of a real video as packed rgb8 files, for `npm run bench:video`.

  video_frames.py VIDEO OUT_DIR COUNT WIDTHxHEIGHT [WIDTHxHEIGHT ...]

Decodes the first COUNT frames of VIDEO (OpenCV's FFmpeg) and writes, per size, OUT_DIR/WxH/
frame-NNN.rgb: each frame scaled to cover the size and centre-cropped (aspect kept, nothing
stretched), area-averaged when shrinking, bilinear when enlarging. Prints one JSON line: the
video's own size and frame rate, and the files per size.
"""
import json
import os
import sys

import cv2

video, out, count, sizes = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
cap = cv2.VideoCapture(video)
if not cap.isOpened():
    raise SystemExit(f"error: {video} does not open")
src = {"width": int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), "height": int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
       "fps": cap.get(cv2.CAP_PROP_FPS)}
frames = []
while len(frames) < count:
    ok, bgr = cap.read()
    if not ok:
        break
    frames.append(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
if len(frames) < count:
    raise SystemExit(f"error: {video} has {len(frames)} frames, {count} wanted")
files = {}
for size in sizes:
    w, h = (int(v) for v in size.split("x"))
    d = os.path.join(out, size)
    os.makedirs(d, exist_ok=True)
    files[size] = []
    for i, f in enumerate(frames):
        fh, fw = f.shape[:2]
        scale = max(w / fw, h / fh)
        sw, sh = max(w, round(fw * scale)), max(h, round(fh * scale))
        scaled = cv2.resize(f, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        x, y = (sw - w) // 2, (sh - h) // 2
        path = os.path.join(d, f"frame-{i:03d}.rgb")
        with open(path, "wb") as fp:
            fp.write(scaled[y:y + h, x:x + w].tobytes())
        files[size].append(path)
print(json.dumps({"source": src, "files": files}))
