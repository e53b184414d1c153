"""Checks H.264 messages with a decoder independent of the encoder (PyAV's own FFmpeg).

With --format jpeg the messages are JPEG pictures instead (decoded by OpenCV), so a benchmark
compares both kinds of stream with the same quality measure.

Reads messages from --packets (each a little-endian uint32 length, then that many bytes: the data
of one foxglove_msgs/CompressedVideo), decodes each one as it comes (one av.Packet per message,
no parser joining or splitting them), and prints one JSON object: per message the NAL unit types
it holds, the frames it decoded to and their picture types; with --reference (raw rgb8 frames of
--width x --height, one per message in order), the SSIM of each decoded frame's luma against the
reference's (Gaussian window 11, sigma 1.5, as Wang et al. 2004) and its PSNR over RGB.
"""
import argparse
import json
import struct
import sys

import av
from av.video.frame import PictureType
import cv2
import numpy as np


def nal_types(data: bytes) -> list:
    types, i, n = [], 0, len(data)
    while True:
        j = data.find(b"\x00\x00\x01", i)
        if j < 0 or j + 3 >= n:
            return types
        types.append(data[j + 3] & 0x1F)
        i = j + 3


def luma(rgb: np.ndarray) -> np.ndarray:
    f = rgb.astype(np.float64)
    return 0.299 * f[..., 0] + 0.587 * f[..., 1] + 0.114 * f[..., 2]


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    blur = lambda x: cv2.GaussianBlur(x, (11, 11), 1.5)
    mu_a, mu_b = blur(a), blur(b)
    var_a = blur(a * a) - mu_a**2
    var_b = blur(b * b) - mu_b**2
    cov = blur(a * b) - mu_a * mu_b
    m = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2))
    return float(m.mean())


def read_messages(path: str) -> list:
    blob = open(path, "rb").read()
    out, i = [], 0
    while i < len(blob):
        (n,) = struct.unpack_from("<I", blob, i)
        out.append(blob[i + 4 : i + 4 + n])
        i += 4 + n
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--packets", required=True)
    ap.add_argument("--reference")
    ap.add_argument("--width", type=int, default=0)
    ap.add_argument("--height", type=int, default=0)
    ap.add_argument("--format", choices=["h264", "jpeg"], default="h264")
    a = ap.parse_args()
    messages = read_messages(a.packets)
    reference = None
    if a.reference:
        reference = np.fromfile(a.reference, np.uint8).reshape(-1, a.height, a.width, 3)
    decoder = av.CodecContext.create("h264", "r")
    results = []
    for k, data in enumerate(messages):
        entry = {"bytes": len(data), "nal_types": nal_types(data), "frames": 0, "pict_types": [], "error": ""}
        pictures = []
        if a.format == "jpeg":
            bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if bgr is None:
                entry["error"] = "not a JPEG OpenCV decodes"
            else:
                pictures = [cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)]
            entry["pict_types"] = ["I"] * len(pictures)
            entry["key_frames"] = [True] * len(pictures)
        else:
            try:
                frames = decoder.decode(av.Packet(data))
            except av.FFmpegError as e:
                entry["error"] = str(e)
                frames = []
            entry["pict_types"] = [PictureType(int(f.pict_type)).name for f in frames]
            entry["key_frames"] = [bool(f.key_frame) for f in frames]
            pictures = [f.to_ndarray(format="rgb24") for f in frames[:1]] + [None] * max(0, len(frames) - 1)
        entry["frames"] = len(pictures)
        if pictures:
            entry["height"], entry["width"] = pictures[0].shape[:2]
        if reference is not None and pictures and k < len(reference):
            got = pictures[0]
            want = reference[k]
            if got.shape == want.shape:
                entry["ssim"] = ssim(luma(want), luma(got))
                mse = float(((got.astype(np.float64) - want) ** 2).mean())
                entry["psnr"] = 99.0 if mse == 0 else 10 * np.log10(255**2 / mse)
        results.append(entry)
    json.dump({"decoder": f"PyAV {av.__version__} (FFmpeg {av.ffmpeg_version_info})", "messages": results}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
