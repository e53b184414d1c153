/**
 * The one list of model families. The manifest parser builds `family` and `outputs` from it, and
 * everything that reads a manifest's outputs finds the format here instead of naming it: adding a
 * family is its folder under src/families/ and one line below.
 */
import { z } from 'zod';
import type { ModelFamily, OutputFormat } from './modelFamily';
import { BLAZEPOSE_FAMILY } from './blazepose/blazeposeFamily';
import { DEEPLABV3_FAMILY } from './deeplabv3/deeplabv3Family';
import { HRNET_FAMILY } from './hrnet/hrnetFamily';
import { MOVENET_FAMILY } from './movenet/movenetFamily';
import { NANODET_FAMILY } from './nanodet/nanodetFamily';
import { SELFIE_SEGMENTATION_FAMILY } from './selfieSegmentation/selfieSegmentationFamily';
import { YOLOV8_FAMILY } from './yolov8/yolov8Family';

/** In the order errors list them (formats, families) and importers try them. */
export const MODEL_FAMILIES = [
  YOLOV8_FAMILY,
  HRNET_FAMILY,
  DEEPLABV3_FAMILY,
  BLAZEPOSE_FAMILY,
  SELFIE_SEGMENTATION_FAMILY,
  NANODET_FAMILY,
  MOVENET_FAMILY,
] as const satisfies readonly ModelFamily[];

type Family = (typeof MODEL_FAMILIES)[number];
type Format = Family['formats'][number];
export type FamilyName = Family['name'];

export const FAMILY_NAMES = MODEL_FAMILIES.map((f) => f.name) as [FamilyName, ...FamilyName[]];

const FORMATS: readonly Format[] = MODEL_FAMILIES.flatMap((f): readonly Format[] => f.formats);

/** The manifest's `outputs`: one member per format of every family. */
export const manifestOutputsSchema = z.discriminatedUnion(
  'format',
  FORMATS.map((f) => f.schema) as [Format['schema'], ...Format['schema'][]],
);
export type ManifestOutputs = z.infer<typeof manifestOutputsSchema>;

/** A layout a family's TFLite recognizer found (its `kind` tells which). */
export type RecognisedTfliteLayout = Family extends infer F
  ? F extends { readonly tflite: { recognize(...args: never[]): infer R } }
    ? Exclude<R, string>
    : never
  : never;

/** The import kinds the families' TFLite recognizers give a manifest. */
export type TfliteFamilyKind = Extract<Family, { readonly tflite: unknown }>['tflite']['kind'];

/** The family a manifest's `family` names (the parser has checked it is one). */
export function modelFamily(name: string): ModelFamily {
  const f = MODEL_FAMILIES.find((x) => x.name === name);
  if (f === undefined) throw new Error(`no model family '${name}'`);
  return f;
}

/** How the outputs block `o` is read: its format's entry. */
export function outputFormat(o: ManifestOutputs): OutputFormat {
  const f = FORMATS.find((x) => x.format === o.format);
  if (f === undefined) throw new Error(`no output format '${o.format}'`);
  return f as OutputFormat;
}
