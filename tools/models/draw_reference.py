"""Draws a reference JSON's boxes on its photo (PNG) so a human can check the weights and the
decoding. usage: draw_reference.py <reference.json> <photos dir> <out.png>"""
import json
import pathlib
import sys

from PIL import Image, ImageDraw

ref = json.loads(pathlib.Path(sys.argv[1]).read_text())
img = Image.open(pathlib.Path(sys.argv[2]) / ref["photo"]).convert("RGB")
d = ImageDraw.Draw(img)
for det in ref["detections"]:
    x0, y0, x1, y1 = det["box_xyxy"]
    d.rectangle([x0, y0, x1, y1], outline=(255, 0, 0), width=3)
    d.text((x0 + 3, y0 + 3), f'{det["class_name"]} {det["score"]:.2f}', fill=(255, 255, 0))
img.save(sys.argv[3])
