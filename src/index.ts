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

export { decodeImage, encodeImage, type ImageFrame } from './ros/imageCodec';
export { FrameError } from './ros/frameError';
export { decodeCompressedImage, encodeCompressedImage } from './ros/compressedImageCodec';

export { renderAnnotated } from './annotate/renderAnnotated';
export { resultAnnotation } from './annotate/resultAnnotation';
