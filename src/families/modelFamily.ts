/**
 * What a model family is to the rest of the package: the manifest `family` it answers to, the
 * tasks it serves and its output formats, each with its part of the manifest schema, its
 * consistency checks and the tensors it declares. Each family lives in its own folder of
 * src/families/ and is listed once in src/families/registry.ts; the manifest parser, the
 * importers, ModelPipeline and the command line ask the registry instead of naming formats.
 */
import type { z } from 'zod';
import type {
  Detection,
  Keypoint,
  PersonPose,
  SegmentedDetection,
  SemanticMap,
} from '../core/headResults';
import type { OutputKernels } from '../core/outputKernels';
import type { ImageTransform, Tensor } from '../core/tensor';
import type { Thresholds } from '../core/thresholds';
import type { TensorSpec } from './manifestParts';

/** What a manifest's `task` can be, and so what a pipeline's result is. */
export const MODEL_TASKS = ['detect', 'pose', 'segment', 'semantic'] as const;
export type ModelTask = (typeof MODEL_TASKS)[number];

/** The fields of a manifest a family's checks may read besides its own `outputs`. */
export interface ManifestView {
  readonly task: ModelTask;
  readonly family: string;
  readonly classNames: readonly string[];
  readonly keypoints?: { readonly names: readonly string[] };
}

/** Reports one problem at a manifest path (zod's custom issue, collected with the others). */
export type IssueSink = (path: (string | number)[], message: string) => void;

/** One tensor an outputs block names, with the manifest field that names it. */
export interface DeclaredTensor {
  readonly field: string;
  readonly spec: TensorSpec | undefined;
}

/** One engine run as a decoder reads it (the engine's RunResult without its timings). */
export interface RunOutputs {
  readonly outputs: readonly Tensor[];
  readonly transform: ImageTransform;
  /** Per channel of the output named by `outputPeaks`: its peak, found on the engine's worker. */
  readonly channelPeaks: Float64Array | undefined;
}

/** What a decoder knows besides the run: the model, this frame's thresholds, the fast loops. */
export interface DecodeContext {
  readonly manifest: ManifestView & { readonly name: string };
  readonly thresholds: Thresholds;
  /** The heads' whole-tensor loops, the addon's where one is loaded. */
  readonly kernels: OutputKernels;
}

/** A whole frame's results, by task, in source-image pixels. */
export type HeadResult =
  | { readonly task: 'detect'; readonly detections: Detection[] }
  | { readonly task: 'pose'; readonly poses: PersonPose[] }
  | { readonly task: 'segment'; readonly instances: SegmentedDetection[] }
  | { readonly task: 'semantic'; readonly map: SemanticMap };

/** One person from a top-down crop: the pose's score and its keypoints in source pixels. */
export interface CropPose {
  readonly score: number;
  readonly keypoints: readonly Keypoint[];
}

/** The zod schema of one `outputs` block: a strict object whose `format` is a literal. */
export type FormatSchema = z.ZodObject<
  { format: z.ZodLiteral<string> } & z.ZodRawShape,
  z.core.$ZodObjectConfig
>;

/** One value of the manifest's `outputs.format`: what the block holds and how it is read. */
export interface OutputFormat<S extends FormatSchema = FormatSchema> {
  /** The `outputs.format` literal, the same as the schema's. */
  readonly format: z.output<S>['format'];
  readonly schema: S;
  /**
   * This format's rules beyond its schema (shapes against classes, keypoints, task); runs after
   * the rules every manifest follows, reporting through `issue`.
   */
  check?(o: z.output<S>, m: ManifestView, issue: IssueSink): void;
  /** The tensors the block names, for the manifest-against-model check. */
  tensors(o: z.output<S>): readonly DeclaredTensor[];
  /** Whole-frame models: one run on the frame, decoded into the task's results. */
  decode?(o: z.output<S>, run: RunOutputs, ctx: DecodeContext): HeadResult;
  /**
   * Top-down models (one person per crop of a detector's box): one run per crop, decoded into
   * that person's pose, or undefined when the model finds no person in it.
   */
  decodeCrop?(o: z.output<S>, run: RunOutputs, ctx: DecodeContext): CropPose | undefined;
  /**
   * The output whose per-channel peaks the engine should find on its worker (engine option
   * outputPeaks), when this format's decoder takes them.
   */
  outputPeaks?(
    o: z.output<S>,
  ): { readonly output: string; readonly layout: 'NCHW' | 'NHWC' } | undefined;
  /** What an INT8-vs-FP32 validation report of such a model should say about its metrics. */
  readonly validationNote?: string;
}

export interface ModelFamily {
  /** The manifest's `family` value. */
  readonly name: string;
  /** The manifest tasks this family serves. */
  readonly tasks: readonly ModelTask[];
  /** Its `outputs.format` values, in the order an error lists them. */
  readonly formats: readonly OutputFormat[];
}
