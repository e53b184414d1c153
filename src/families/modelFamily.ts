/**
 * What a model family is to the rest of the package: the manifest `family` it answers to, the
 * tasks it serves and its output formats, each with its part of the manifest schema, its
 * consistency checks and the tensors it declares. Each family lives in its own folder of
 * src/families/ and is listed once in src/families/registry.ts; the manifest parser, the
 * importers, ModelPipeline and the command line ask the registry instead of naming formats.
 */
import type { z } from 'zod';
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
}

export interface ModelFamily {
  /** The manifest's `family` value. */
  readonly name: string;
  /** The manifest tasks this family serves. */
  readonly tasks: readonly ModelTask[];
  /** Its `outputs.format` values, in the order an error lists them. */
  readonly formats: readonly OutputFormat[];
}
