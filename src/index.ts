/**
 * The package's public API for use as a library (package.json `main`): model manifests, the
 * manifest-driven pipeline, the engine session over the native addon, the pure task heads, the
 * image codecs for raw ROS messages, and annotation. Nothing here loads rclnodejs or the addon at
 * import time: the addon loads on the first EngineSession, ROS only in the node executables.
 */
export { ConfigError, describeZodError, formatZodIssues } from './core/configError';
export {
  loadModelManifest,
  parseModelManifest,
  requireModelFiles,
  type ModelManifest,
} from './config/modelManifest';
export { findModelManifests } from './config/findModelManifests';
export { PACKAGE_ROOT, packagePath } from './packageRoot';

export { ModelPipeline, DEFAULT_THRESHOLDS, type Thresholds } from './pipeline/modelPipeline';
export { type PipelineResult, type StageTimings } from './core/pipelineResult';
export type { Precision } from './pipeline/runtimeChoices';

export {
  EngineSession,
  type ProviderReport,
  type RunResult,
  type RunTimings,
} from './engine/engineSession';
export { type Frame, type FrameEncoding, type Roi } from './core/frame';
export { EngineError, type EngineErrorCode } from './core/engineError';
export { parseEngineOptions, type EngineOptions } from './engine/engineOptions';

export { decodeYoloDetections } from './families/yolov8/decodeYoloDetections';
export { decodeYoloPose } from './families/yolov8/decodeYoloPose';
export { decodeYoloSegmentation } from './families/yolov8/decodeYoloSegmentation';
export { decodeHrnetHeatmaps } from './families/hrnet/decodeHrnetHeatmaps';
export { decodeDeeplab } from './heads/decodeDeeplab';
export { buildInstanceIdImage } from './heads/buildInstanceIdImage';
export { nonMaxSuppression } from './heads/nonMaxSuppression';
export { HeadError, type HeadErrorCode } from './heads/headError';
export type {
  Box,
  Detection,
  InstanceMask,
  Keypoint,
  PersonPose,
  SegmentedDetection,
  SemanticMap,
} from './core/headResults';
export type { ImageTransform, Tensor } from './core/tensor';

export { decodeImage, encodeImage, type ImageFrame } from './ros/codecs/imageCodec';
export { FrameError } from './ros/frameError';
export { decodeCompressedImage, encodeCompressedImage } from './ros/codecs/compressedImageCodec';

export { renderAnnotated } from './annotate/renderAnnotated';
export {
  videoAddon,
  type EncodedPacket,
  type NativeVideoEncoder,
  type VideoAddon,
} from './video/videoAddon';
export { resultAnnotation } from './annotate/resultAnnotation';

// What a second program built on the library needs beyond running a model: the benchmark
// workspace (bench/) is such a program and imports nothing else of src/.

// Model files: manifests found by name, ONNX graphs written from scratch (test and stand-in
// models), the reference Python the tools venv provides.
export { resolveModelManifest } from './model/resolveModelManifest';
export { resolveModelReference } from './config/perceptionConfig';
export {
  modelProto,
  nodeProto,
  tensorProto,
  valueInfoProto,
  int64Raw,
  ONNX_FLOAT,
  ONNX_INT64,
  ONNX_UINT8,
  type Bytes,
} from './model/onnxWriter';
export { DEFAULT_TOOLS_PYTHON } from './quantize/runQuantizer';
export type { Int8Input } from './pipeline/runtimeChoices';
export { NO_STAGE_TIMINGS } from './core/pipelineResult';

// Heads' building blocks, for decoding outside ModelPipeline.
export { letterboxTransform } from './heads/letterboxTransform';
export { planHrnetCrop } from './heads/planHrnetCrop';
export { colorizeLabelMap } from './heads/colorizeLabelMap';
export { COCO17 } from './heads/cocoKeypoints';
export { nativeOutputKernels } from './engine/outputKernels';

// Agreement between two runs of a model (FP32 against INT8, ours against a reference).
export { Int8Agreement } from './quantize/int8Agreement';
export { keypointAgreement } from './quantize/keypointAgreement';
export { instanceMaskIou } from './quantize/maskAgreement';

// Tracking and 3D placement on their own.
export { boxIou } from './core/boxIou';
export { ByteTracker } from './tracking/byteTracker';
export { BYTETRACK_DEFAULTS } from './tracking/trackerOptions';
export { CameraModel } from './depth/cameraModel';
export { DepthImage } from './depth/depthImage';
export { placeResult } from './depth/placeResult';

// Photos as frames (the real photos bootstrap fetches into .cache/).
export { listPhotos, loadRgbFrame } from './photos/photoFrames';

// ROS: loading rclnodejs (lazily: importing this module loads nothing), taking raw images, CDR
// messages the nodes publish, and what the frame nodes are started with and time per frame.
// What a bare ROS 2 peer needs (rclnodejs, QoS, CDR reader and header, Detection2DArray) is the
// second entry, rosPeer.ts, whose list this one includes.
export * from './rosPeer';
export { ImageIntake } from './ros/imageIntake';
export { stampMs } from './ros/rosHeader';
export { detection3DArray, personPose3DArray } from './ros/spatialMessages';
export { encodeDetection3DArray, encodePersonPose3DArray } from './ros/codecs/spatialCodec';
export { spatialMarkers } from './ros/spatialMarkers';
export { FRAME_NODE_FLAGS } from './nodes/process/frameNodeFlags';
export { STAGES, type Stage } from './nodes/perception/nodeStats';

// Small utilities the command-line programs share.
export { formatTable } from './util/formatTable';
export { percentile } from './util/percentile';
export { printedHelp } from './util/commandHelp';
