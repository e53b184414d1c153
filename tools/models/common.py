"""Shared helpers for the model tools: Ultralytics-style letterbox and photo listing.

The letterbox follows Ultralytics' documented convention (centred, bilinear, pad 114, the
half-pixel split of the padding rounded with a -0.1/+0.1 bias) so the reference predictions are
made on exactly the tensor Ultralytics' own predictor would build.
"""
from __future__ import annotations

import pathlib

import cv2
import numpy as np

PHOTO_EXTS = {".jpg", ".jpeg", ".png"}


def list_photos(folder: pathlib.Path) -> list[pathlib.Path]:
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_EXTS)
    if not photos:
        raise SystemExit(f"no photos in {folder}: run scripts/setup/15-photos.sh first")
    return photos


def read_rgb(path: pathlib.Path) -> np.ndarray:
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise SystemExit(f"cannot decode {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def letterbox(rgb: np.ndarray, size: int, pad_value: int = 114):
    """Returns (image size x size x 3 uint8, gain, pad_left, pad_top)."""
    h, w = rgb.shape[:2]
    gain = min(size / h, size / w)
    new_w, new_h = int(round(w * gain)), int(round(h * gain))
    dw, dh = (size - new_w) / 2, (size - new_h) / 2
    img = rgb if (new_w, new_h) == (w, h) else cv2.resize(rgb, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    img = cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(pad_value,) * 3)
    return img, gain, left, top


def to_nchw_float(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img.transpose(2, 0, 1)[None].astype(np.float32) / 255.0)
