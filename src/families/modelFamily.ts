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
import type { ElementType } from '../core/elementType';
import type { ExportedModel, ExportTensor } from './exportTensor';
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

/** The image input an importer found in a model file. */
export interface ImportedInput {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly layout: 'NCHW' | 'NHWC';
  readonly dtype: ElementType;
}

/**
 * Manifest data an importer wrote for a file (the manifest parser and the check against the file
 * follow), and what a person should review ("assumed: ...").
 */
export interface ImportedManifest {
  readonly data: object;
  readonly assumptions: readonly string[];
}

/** What `model import` hands the family that reads Ultralytics exports by their metadata. */
export interface UltralyticsImport {
  readonly file: string;
  readonly model: ExportedModel;
  /** The manifest's name. */
  readonly name: string;
  /** The one image input (float32, NCHW or NHWC); refuses the file naming `example` otherwise. */
  imageInput(size: [number, number] | undefined, example: string): ImportedInput;
  /** Refuses the file: ImportRefusedError naming the reason, the file's tensors and `example`. */
  refuse(reason: string, example: string): never;
  /** The provenance of a user's export, with its metadata's version and licence. */
  provenance(description: string): object;
}

/** What `model import` hands each family for a file laid out like a Qualcomm AI Hub export. */
export interface AihubImport {
  readonly model: ExportedModel;
  readonly input: ImportedInput;
  /** schemaVersion, name, weights, files: the manifest's first fields. */
  readonly base: object;
  /** The manifest's `input`: AI Hub models take RGB 0..1 and normalize inside where they need it. */
  inputWith(resize: object): object;
  provenance(what: string): object;
  refuse(reason: string): never;
}

/** The smallest and largest value an output took over the conversion check's images. */
export interface ObservedRange {
  readonly min: number;
  readonly max: number;
}

/** What `model import FILE.tflite` hands the family whose layout a converted model has. */
export interface TfliteImport {
  /** schemaVersion, name, weights, files, provenance: the manifest's first fields. */
  readonly base: object;
  /** The manifest's `input` for an NHWC RGB 0..1 input (MediaPipe's). */
  nhwcInput(t: ExportTensor, resize: object): object;
}

/**
 * A layout recognised from a converted TFLite model's tensors (shapes and element types, not
 * names: other builds of the same networks name their tensors differently) and, where shapes
 * alone are ambiguous, from the value range the conversion check observed.
 */
export interface TfliteLayoutRecognizer<L extends { readonly kind: string }> {
  /** How a refusal names the layout: "not <label>: <why>". */
  readonly label: string;
  /** The import's kind once recognised, and how `model import` prints it. */
  readonly kind: string;
  readonly title: string;
  recognize(
    inputs: readonly ExportTensor[],
    outputs: readonly ExportTensor[],
    ranges: ReadonlyMap<string, ObservedRange>,
  ): L | string;
  /** The manifest data of a model with this layout. */
  manifest(layout: L, x: TfliteImport): object;
}

/** A semantic segmentation model as its TFLite metadata describes it (recognizeTfliteMetadata). */
export interface MetadataSemanticLayout {
  readonly kind: 'metadata-semantic';
  readonly input: ExportTensor;
  readonly width: number;
  readonly height: number;
  /** value = (pixel - mean[c]) / std[c], pixel in 0..255: NormalizationOptions per channel. */
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];
  /** False when the metadata does not state RGB (then RGB is assumed and said). */
  readonly rgbStated: boolean;
  readonly output: ExportTensor;
  /** Where the class axis is: last (NHWC, TFLite's own) or second. */
  readonly outputLayout: 'NHWC' | 'NCHW';
  readonly labels: readonly string[];
  readonly labelsFile: string;
}

/** What `model import FILE.tflite` hands the family that reads semantic models by metadata. */
export interface TfliteMetadataImport {
  readonly base: object;
  /** The metadata's name, version, author, licence and description, as one sentence ('' if none). */
  readonly summary: string;
  /** The metadata's name and description, to tell which network it is. */
  readonly describedAs: string;
}

/**
 * A TensorFlow.js graph model as `model import model.json` reads it before conversion: its
 * signature's one input and its outputs (the graph's own input shape where the signature states
 * one size of a dynamic graph), and where its model.json says it came from.
 */
export interface TfjsGraphView {
  readonly input: ExportTensor;
  readonly outputs: readonly ExportTensor[];
  /** model.json `generatedBy` (TF Hub's or a repository's address), '' when absent. */
  readonly generatedBy: string;
}

/** How the conversion check feeds photos to a float input (0..255 units); none: RGB 0..1 or bytes. */
export interface TfjsCheckInput {
  readonly mean: readonly number[];
  readonly std: readonly number[];
  readonly bgr: boolean;
}

/** What `model import model.json` hands the family whose layout a graph model has. */
export interface TfjsImport {
  /** schemaVersion, name, weights, files, provenance: the manifest's first fields. */
  readonly base: object;
  /** The converted file's image input (an int32 image input has become uint8). */
  readonly input: ImportedInput;
  /** The converted file's output for a signature output (by its TensorFlow.js tensor name). */
  output(tfjsName: string): ExportTensor;
}

/** A layout recognised from a graph model's signature (shapes, not names), and its manifest. */
export interface TfjsLayoutRecognizer<L extends { readonly kind: string }> {
  readonly label: string;
  readonly kind: string;
  readonly title: string;
  recognize(graph: TfjsGraphView): L | string;
  /** The check's input: what the network was trained on, so both runtimes see realistic values. */
  checkInput(layout: L): TfjsCheckInput | undefined;
  manifest(layout: L, x: TfjsImport): object;
}

export interface ModelFamily {
  /** The manifest's `family` value. */
  readonly name: string;
  /** The manifest tasks this family serves. */
  readonly tasks: readonly ModelTask[];
  /** Its `outputs.format` values, in the order an error lists them. */
  readonly formats: readonly OutputFormat[];
  /** Reads Ultralytics exports by their metadata (task, names), or refuses them naming `example`. */
  readonly ultralytics?: {
    readonly example: string;
    derive(x: UltralyticsImport): ImportedManifest;
  };
  /** Its AI Hub layout: the output names a refusal lists, and how it recognises them. */
  readonly aihub?: {
    readonly outputs: string;
    /** The manifest of a file with this layout; undefined when the outputs are not this family's. */
    read(x: AihubImport): ImportedManifest | undefined;
  };
  /** Recognises its layout among a converted TFLite model's tensors. */
  readonly tflite?: TfliteLayoutRecognizer<{ readonly kind: string }>;
  /** Recognises its layouts among TensorFlow.js graph models (`model import model.json`). */
  readonly tfjs?: readonly TfjsLayoutRecognizer<{ readonly kind: string }>[];
  /** The manifest of a semantic model that its TFLite metadata describes. */
  fromTfliteMetadata?(layout: MetadataSemanticLayout, x: TfliteMetadataImport): ImportedManifest;
}
