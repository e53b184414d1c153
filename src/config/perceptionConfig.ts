import { z } from 'zod';
import { packagePath } from '../packageRoot';
import { describeZodError } from './configError';

/** Parameters of the perception (and detector) node, with the defaults a fresh checkout runs with. */
export const PERCEPTION_DEFAULTS = {
  /** Model manifest (JSON) beside the ONNX files. */
  model: packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
  /** cpu, or htp (Hexagon NPU through the QNN provider; needs an INT8 QDQ model). */
  provider: 'cpu',
  /** fp32 or int8 (the manifest's QDQ file). */
  precision: 'fp32',
  /** Intra-op threads for the CPU provider; 0 lets ONNX Runtime choose. */
  threads: 0,
  score_threshold: 0.25,
  iou_threshold: 0.7,
  max_detections: 300,
  /** Class names to keep; empty keeps all. */
  classes: [] as string[],
  input_transport: 'raw',
  input_qos: 'sensor_data',
  /** HTP power profile held while frames flow (see docs/engine.md). */
  htp_profile: 'sustained_high_performance',
  vtcm_mb: 0,
  /** Pre-compiled graph file for fast HTP start; empty: compile at every start. */
  context_cache: '',
  /** Detect-model manifest whose boxes a top-down pose model (HRNet) crops; empty otherwise. */
  person_detector: '',
  /** Refuse to start if any graph node would run on the CPU instead of the HTP. */
  require_accelerator: false,
  jpeg_quality: 75,
};

const schema = z.object({
  model: z.string().min(1),
  provider: z.enum(['cpu', 'htp']),
  precision: z.enum(['fp32', 'int8']),
  threads: z.number().int().min(0).max(64),
  score_threshold: z.number().min(0).max(1),
  iou_threshold: z.number().gt(0).max(1),
  max_detections: z.number().int().min(1).max(10000),
  classes: z.array(z.string().min(1)),
  input_transport: z.enum(['raw', 'compressed']),
  input_qos: z.enum(['sensor_data', 'reliable', 'default']),
  htp_profile: z.string().min(1),
  vtcm_mb: z.number().int().min(0).max(64),
  context_cache: z.string(),
  person_detector: z.string(),
  require_accelerator: z.boolean(),
  jpeg_quality: z.number().int().min(1).max(100),
});

export type PerceptionConfig = z.infer<typeof schema>;

export function parsePerceptionConfig(values: unknown): PerceptionConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError('perception node parameters', r.error);
  return r.data;
}
