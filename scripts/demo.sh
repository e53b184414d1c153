#!/usr/bin/env bash
# The main job on this machine (CPU): installs what is missing, then
#  1. runs every model in models/ over the bootstrap photos and the photos of people, and writes
#     annotated images and results.json into out/photos and out/people;
#  2. runs perception over ROS 2 the way a robot does: image_source publishes the photos of people
#     as a camera, one perception_container runs five managed pipelines on it (YOLO11n COCO
#     detection, MediaPipe BlazePose on the detector's people, YOLO11n-seg instance masks, MediaPipe
#     selfie segmentation, DeepLabV3 PASCAL VOC; config/demo-pipelines.yaml), and
#     pipeline_monitor watches them as an operator would (rate, latency, finds, processor, the
#     annotated JPEG of each saved to out/ros/), and writes a contact sheet (out/demo/contact-sheet.png)
#     of the last annotated frames of each pipeline (with whatever ids the detections carry) and
#     the semantic colour overlay; before that, out/demo/tracking-sheet.png shows track ids on a
#     photo moving across the frame and out/demo/tracking-video.png on the frames of a real video
#     of people (src/tools/trackingSheet.ts). The permissive stack (NanoDet, MoveNet MultiPose)
#     runs beside the default models in step 1, and `model list --licence` says which is which.
#   scripts/demo.sh [seconds of ROS streaming]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:-10}"
bash scripts/bootstrap.sh
source scripts/env.sh
node dist/src/tools/runModelsOnPhotos.js --out out/photos
# The trained person models on photos of people (bootstrap step 26), with the detector they use;
# beside them the permissive stack's detector and bottom-up pose (Apache-2.0 weights, issue 42).
node dist/src/tools/runModelsOnPhotos.js --photos .cache/photos-people \
  --models yolo11n,yolo11n-seg,blazepose-full,selfie-segmentation,deeplabv3-mobilenetv2-257,nanodet,movenet-multipose \
  --out out/people
# Which weights a company may ship: the licence of every model, permissive ones first.
node dist/src/cli/main.js model list --licence permissive
node dist/src/cli/main.js model list --licence copyleft
# Tracking: person.jpg moving across 36 frames, the detector with tracking on; ids on every box.
node dist/src/tools/trackingSheet.js --frames 36 --out out/demo/tracking-sheet.png
# And on a real video (bootstrap step 26: 16 frames, a cyclist passing two men).
node dist/src/tools/trackingSheet.js --video .cache/video-people --out out/demo/tracking-video.png
echo
echo "ROS 2: image_source -> perception_container (detector, pose, instances, segmentation, semantic) -> pipeline_monitor for $seconds s"
# A domain of its own, so the demo never meets other ROS 2 graphs on this machine.
export ROS_DOMAIN_ID="${HTP_DEMO_DOMAIN_ID:-77}"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
# One camera size for every photo (letterboxed), as a camera sends: the pipelines plan their input
# once instead of logging a new size per photo.
node dist/src/nodes/imageSourceNode.js --ros-args -p rate_hz:=5.0 -p directory:="$root/.cache/photos-people" \
  -p width:=640 -p height:=480 &
pids+=($!)
# The heap settings the installed perception_container starts with (HTP_FRAME_NODE_FLAGS).
node --no-memory-reducer --heap-growing-percent=300 dist/src/nodes/perceptionContainer.js \
  --ros-args --params-file config/demo-pipelines.yaml &
pids+=($!)
sheet=out/demo/contact-sheet.png
node dist/src/tools/pipelineMonitor.js detector pose instances segmentation semantic --seconds "$seconds" --save out/ros \
  --contact-sheet "$sheet"
echo "contact sheet: $root/$sheet"
