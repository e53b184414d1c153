import { z } from 'zod';
import { MAX_IMAGE_DIMENSION } from '../core/imageEncoding';
import { describeZodError } from '../core/configError';
import { lookUpModelReference } from './modelSearchPath';
import { POWER_PROFILE_NAMES } from '../core/powerProfiles';
import { PRECISIONS } from '../core/precisions';
import type { TrackerOptions } from '../tracking/trackerOptions';
import { parameterSpec as spec } from '../core/parameterSpec';
import type { ParameterSpec } from '../core/parameterSpec';
import { tableDefaults, tableSchema } from './parameterTable';
import { KEYPOINT_SETS } from './keypointSets';
import { VIDEO_ENCODER_CHOICES, type VideoEncoderChoice } from '../core/videoEncoders';

/**
 * Parameters of every perception node (and of each pipeline of a perception_container): the one
 * place with their defaults, checks, descriptions and kinds. ROS descriptors (ranges, read-only)
 * and the zod schema below are both derived from it.
 */
export const PERCEPTION_PARAMETERS = {
  model: spec(
    z.string().min(1),
    'yolo11n',
    'unconfigured',
    "model name, looked up in HTP_PERCEPTION_MODEL_PATH's folders then the package's models/ (default yolo11n: COCO-80, Ultralytics weights under AGPL-3.0), or a manifest path",
  ),
  allow_model_mismatch: spec(
    z.boolean(),
    false,
    'unconfigured',
    'load a model file (model, person_detector) whose SHA-256 is not the one its manifest records (files.sha256); false refuses it at configure',
  ),
  provider: spec(
    z.enum(['cpu', 'htp', 'gpu']),
    'cpu',
    'session',
    'cpu, htp (Hexagon NPU through the QNN provider; needs a QDQ model: precision int8 or w8a16) or gpu (the Adreno GPU through the QNN provider; FP32 models, computed in FP16)',
  ),
  precision: spec(
    z.enum(PRECISIONS),
    'fp32',
    'session',
    "fp32, int8 (the manifest's W8A8 QDQ file) or w8a16 (16-bit activations, 8-bit weights: the manifest's W8A16 QDQ file, or the binary of an Ultralytics format=qnn export, HTP only)",
  ),
  int8_input: spec(
    z.enum(['quantized', 'float']),
    'quantized',
    'session',
    'int8 only: quantized feeds uint8 from the preprocessing in place of the graph input QuantizeLinear; float keeps the float input (for comparison)',
  ),
  threads: spec(
    z.number().int().min(0).max(64),
    0,
    'session',
    'intra-op threads of the CPU provider; 0 lets ONNX Runtime choose',
  ),
  score_threshold: spec(
    z.number().min(0).max(1),
    0.25,
    'frame',
    'keep detections scoring at least this',
  ),
  iou_threshold: spec(
    z.number().gt(0).max(1),
    0.7,
    'frame',
    'non-maximum suppression IoU threshold',
  ),
  max_detections: spec(
    z.number().int().min(1).max(10000),
    300,
    'frame',
    'most detections kept per frame',
  ),
  classes: spec(
    z.array(z.string().min(1)),
    [] as string[],
    'frame',
    'class names to keep; empty keeps all',
  ),
  cameras: spec(
    z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z][A-Za-z0-9_]*(\/[A-Za-z][A-Za-z0-9_]*)*$/,
            'a camera is a relative ROS namespace: letters, digits and _, parts joined by /',
          ),
      )
      .max(16)
      .refine((a) => new Set(a).size === a.length, 'a camera named twice'),
    [],
    'session',
    'camera namespaces served by this one model (e.g. [front, rear]): each subscribes `<camera>/image_raw` (and `<camera>/depth`, `<camera>/camera_info`) and publishes under `~/<camera>/`; empty = the single `image` input',
  ),
  input_transport: spec(
    z.enum(['raw', 'compressed']),
    'raw',
    'session',
    'raw (sensor_msgs/Image on `image`) or compressed (CompressedImage on `image/compressed`)',
  ),
  input_qos: spec(
    z.enum(['sensor_data', 'reliable', 'default', 'reliable_keep_all']),
    'sensor_data',
    'session',
    'QoS of the input subscriptions: sensor_data (best effort, keep last 1), reliable (keep last 1), default (reliable, keep last 10) or reliable_keep_all (nothing overwritten before it is taken)',
  ),
  input_timeout_s: spec(
    z.number().min(0).max(3600),
    2.0,
    'frame',
    'seconds without a message on an input topic (the image; with depth: also depth and camera_info) before the diagnostics WARN of stale input and one log line; 0 disables',
  ),
  htp_profile: spec(
    z.enum(POWER_PROFILE_NAMES as [string, ...string[]]),
    'sustained_high_performance',
    'session',
    `HTP power profile held while frames flow: ${POWER_PROFILE_NAMES.join(', ')}`,
  ),
  vtcm_mb: spec(
    z.number().int().min(0).max(64),
    0,
    'session',
    'HTP VTCM size in MB; 0 = device maximum',
  ),
  context_cache: spec(
    z.string(),
    '',
    'unconfigured',
    "pre-compiled HTP graph file for fast start (written on first load); empty: the manifest's binary for this SoC (htp-perception model compile), else compile at start",
  ),
  person_detector: spec(
    z.string(),
    '',
    'unconfigured',
    'top-down pose (HRNet, BlazePose): detect-model manifest run on each frame for the person boxes',
  ),
  person_source: spec(
    z.string(),
    '',
    'session',
    'top-down pose (HRNet, BlazePose): name of a detection pipeline of the same process whose boxes to use',
  ),
  person_classes: spec(
    z.array(z.string().min(1)),
    ['person'],
    'frame',
    "top-down pose: the person detector's classes whose boxes go to the pose model",
  ),
  keypoint_set: spec(
    z.enum(KEYPOINT_SETS),
    'coco17',
    'session',
    "pose: coco17 publishes the 17 COCO keypoints (picked by name from models with more, e.g. BlazePose's 33); model publishes the model's own keypoints (skeleton blazepose33 for BlazePose)",
  ),
  probability_threshold: spec(
    z.number().min(0).max(1),
    0.5,
    'frame',
    'probability-map segmentation (selfie segmentation): a pixel is the class from this probability up',
  ),
  require_accelerator: spec(
    z.boolean(),
    false,
    'session',
    'refuse to configure if any graph node would run on the CPU instead of the HTP (or, with provider gpu, the GPU)',
  ),
  on_accelerator_failure: spec(
    z.enum(['retry', 'cpu', 'stop']),
    'retry',
    'frame',
    'when runs fail with a runtime error or pass run_deadline_ms (a DSP restart, a dropped FastRPC session): retry re-creates the sessions with backoff and resumes on the same provider; cpu continues on the CPU; stop deactivates the node for a lifecycle manager to decide',
  ),
  batch_window_ms: spec(
    z.number().int().min(0).max(1000),
    10,
    'frame',
    "with a batch-N model (`htp-perception model import MODEL --batch N`) and several cameras: how long the first waiting frame waits for other cameras' frames to fill the batch before it runs with fewer; 0 runs what is waiting at once",
  ),
  run_deadline_ms: spec(
    z.number().int().min(100).max(600_000),
    5000,
    'frame',
    "a frame's engine runs not done after this many ms count as an accelerator failure (on_accelerator_failure); raise it for slow CPU pipelines and the x86-64 HTP simulator",
  ),
  jpeg_quality: spec(
    z.number().int().min(1).max(100),
    75,
    'frame',
    'JPEG quality of ~/annotated/compressed',
  ),
  tracking: spec(
    z.boolean(),
    false,
    'frame',
    'give detections, poses and instances track ids stable across frames (ByteTrack); switching it resets the tracker',
  ),
  track_high_threshold: spec(
    z.number().gt(0).max(1),
    0.5,
    'frame',
    'tracking: detections scoring at least this are matched first and may start tracks',
  ),
  track_low_threshold: spec(
    z.number().gt(0).max(1),
    0.1,
    'frame',
    'tracking: detections from this score up only continue tracks (they replace score_threshold while tracking)',
  ),
  track_new_threshold: spec(
    z.number().gt(0).max(1),
    0.6,
    'frame',
    'tracking: an unmatched detection scoring at least this starts a track (published from its second frame)',
  ),
  track_match_iou: spec(
    z.number().gt(0).max(1),
    0.2,
    'frame',
    "tracking: least IoU between a track's predicted box and a detection for them to match",
  ),
  track_buffer: spec(
    z.number().int().min(1).max(10000),
    30,
    'frame',
    'tracking: processed frames a lost track is kept (predicted) for its object to come back',
  ),
  annotated_max_rate_hz: spec(
    z.number().min(0).max(1000),
    10.0,
    'frame',
    'most pictures per second on ~/annotated, ~/annotated/compressed and ~/annotated/foxglove; 0 = one per result',
  ),
  annotated_max_width: spec(
    z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
    1280,
    'frame',
    'wider annotated pictures are scaled down to this width (aspect kept); 0 = camera size',
  ),
  video_encoder: spec(
    z.enum(VIDEO_ENCODER_CHOICES),
    'auto',
    'frame',
    "H.264 encoder of ~/annotated/foxglove: auto (the board's V4L2 memory-to-memory encoder when one is found, else software), v4l2 (only the board's; refused where none is found), software (OpenH264, BSD-2-Clause), x264 (libx264 through libavcodec, GPL)",
  ),
  video_bitrate_kbps: spec(
    z.number().int().min(50).max(50_000),
    500,
    'frame',
    '~/annotated/foxglove: target bitrate in kbit/s',
  ),
  video_keyframe_interval_s: spec(
    z.number().min(0.2).max(600),
    2.0,
    'frame',
    '~/annotated/foxglove: longest time between keyframes (IDR, with SPS and PPS); a viewer that joins gets one on the next picture anyway',
  ),
  video_width: spec(
    z.number().int().min(0).max(MAX_IMAGE_DIMENSION),
    0,
    'frame',
    '~/annotated/foxglove: picture width (aspect kept, rounded to even, never wider than the camera); 0 = as annotated_max_width',
  ),
  segmentation_color_opacity: spec(
    z.number().min(0).max(1),
    0.5,
    'frame',
    'semantic models: opacity of the VOC colours blended over the camera image on ~/segmentation/color',
  ),
  depth: spec(
    z.boolean(),
    false,
    'session',
    'also place results in space from an aligned depth image on `depth` (16UC1 mm or 32FC1 m) and CameraInfo on `camera_info`: ~/detections_3d, ~/poses_3d, ~/markers',
  ),
  depth_transport: spec(
    z.enum(['raw', 'compressedDepth']),
    'raw',
    'session',
    "depth: raw (sensor_msgs/Image on `depth`) or compressedDepth (image_transport's PNG or RVL on `depth/compressedDepth`)",
  ),
  depth_slop_ms: spec(
    z.number().min(0).max(1000),
    11.1,
    'frame',
    'depth: largest stamp difference between a colour frame and the depth frame paired with it (default a third of a 30 Hz period)',
  ),
  depth_min_m: spec(
    z.number().min(0).max(1000),
    0.1,
    'frame',
    'depth: nearer depth values are ignored (sensor minimum range)',
  ),
  depth_max_m: spec(
    z.number().gt(0).max(1000),
    10.0,
    'frame',
    'depth: farther depth values are ignored (beyond the sensor useful range)',
  ),
  target_frame: spec(
    z
      .string()
      .max(256)
      .regex(/^[^\s]*$/, 'a frame id has no spaces'),
    '',
    'session',
    "depth: the frame of ~/detections_3d, ~/poses_3d and ~/markers (e.g. base_link), from /tf and /tf_static at each image's stamp; empty = the camera's optical frame (the image's frame_id)",
  ),
  autostart: spec(
    z.boolean(),
    true,
    'fixed',
    'configure and activate at start; false leaves the node unconfigured for a lifecycle manager',
  ),
} as const satisfies Record<string, ParameterSpec>;

export type PerceptionParameterName = keyof typeof PERCEPTION_PARAMETERS;

const schema = tableSchema(PERCEPTION_PARAMETERS).superRefine((c, ctx) => {
  if (c.person_detector && c.person_source) {
    ctx.addIssue({
      code: 'custom',
      path: ['person_source'],
      message: 'set either person_detector or person_source, not both',
    });
  }
  if (c.provider === 'gpu' && c.precision !== 'fp32') {
    ctx.addIssue({
      code: 'custom',
      path: ['precision'],
      message: `the QNN GPU backend has no quantized (QDQ) path for ${c.precision}: use precision fp32 with provider gpu (it computes in FP16)`,
    });
  }
  if (c.require_accelerator && c.on_accelerator_failure === 'cpu') {
    ctx.addIssue({
      code: 'custom',
      path: ['on_accelerator_failure'],
      message:
        'cpu contradicts require_accelerator: choose retry or stop, or drop require_accelerator',
    });
  }
  if (c.track_low_threshold > c.track_high_threshold) {
    ctx.addIssue({
      code: 'custom',
      path: ['track_low_threshold'],
      message: `must not exceed track_high_threshold (${c.track_high_threshold})`,
    });
  }
  if (c.depth_min_m >= c.depth_max_m) {
    ctx.addIssue({
      code: 'custom',
      path: ['depth_min_m'],
      message: `must be below depth_max_m (${c.depth_max_m})`,
    });
  }
  if (c.track_new_threshold < c.track_high_threshold) {
    ctx.addIssue({
      code: 'custom',
      path: ['track_new_threshold'],
      message: `must be at least track_high_threshold (${c.track_high_threshold}): only high detections start tracks`,
    });
  }
});

export type PerceptionConfig = z.output<typeof schema>;

export const PERCEPTION_DEFAULTS = tableDefaults(PERCEPTION_PARAMETERS);

export function parsePerceptionConfig(
  values: unknown,
  source = 'perception parameters',
): PerceptionConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError(source, r.error);
  return r.data;
}

/** The per-frame options of a config: what a running pipeline takes without a reconfigure. */
export interface FrameOptions {
  readonly scoreThreshold: number;
  readonly iouThreshold: number;
  readonly maxDetections: number;
  readonly classes: readonly string[];
  readonly personClasses: readonly string[];
  readonly probabilityThreshold: number;
  readonly jpegQuality: number;
  /** The tracker's options while tracking is on; undefined when it is off. */
  readonly tracking: TrackerOptions | undefined;
  /** 0: no limit. */
  readonly annotatedMaxRateHz: number;
  /** 0: the camera's width. */
  readonly annotatedMaxWidth: number;
  readonly segmentationColorOpacity: number;
  readonly video: VideoOptions;
}

/** ~/annotated/foxglove's live settings. */
export interface VideoOptions {
  readonly encoder: VideoEncoderChoice;
  readonly bitrateKbps: number;
  readonly keyframeIntervalS: number;
  /** 0: as annotatedMaxWidth. */
  readonly width: number;
}

export function frameOptions(c: PerceptionConfig): FrameOptions {
  return {
    scoreThreshold: c.score_threshold,
    iouThreshold: c.iou_threshold,
    maxDetections: c.max_detections,
    classes: c.classes,
    personClasses: c.person_classes,
    probabilityThreshold: c.probability_threshold,
    jpegQuality: c.jpeg_quality,
    tracking: c.tracking
      ? {
          highThreshold: c.track_high_threshold,
          lowThreshold: c.track_low_threshold,
          newTrackThreshold: c.track_new_threshold,
          matchIou: c.track_match_iou,
          buffer: c.track_buffer,
        }
      : undefined,
    annotatedMaxRateHz: c.annotated_max_rate_hz,
    annotatedMaxWidth: c.annotated_max_width,
    segmentationColorOpacity: c.segmentation_color_opacity,
    video: {
      encoder: c.video_encoder,
      bitrateKbps: c.video_bitrate_kbps,
      keyframeIntervalS: c.video_keyframe_interval_s,
      width: c.video_width,
    },
  };
}

/**
 * A `model` / `person_detector` value as a manifest path: an existing file as given, otherwise the
 * model of that name on the model search path (HTP_PERCEPTION_MODEL_PATH, then the package's
 * models/; src/config/modelSearchPath.ts). Anything else is returned unchanged and fails at load,
 * naming the file; the nodes use requireModelReference, which refuses an unknown name itself.
 */
export function resolveModelReference(ref: string): string {
  return lookUpModelReference(ref);
}

/** What a node with `depth: true` places results with (frame parameters: read per frame). */
export interface DepthSettings {
  readonly slopMs: number;
  readonly range: { readonly min: number; readonly max: number };
}

export function depthSettings(c: PerceptionConfig): DepthSettings {
  return { slopMs: c.depth_slop_ms, range: { min: c.depth_min_m, max: c.depth_max_m } };
}
