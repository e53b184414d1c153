/**
 * Recognises the layouts `htp-perception model import FILE.tflite` knows from the converted
 * model's tensors: each model family with a TFLite recognizer (src/families/registry.ts; today
 * MediaPipe's BlazePose landmarks and selfie segmentation) is asked in the registry's order, and
 * the first that recognises the tensors wins.
 */
import type { ExportTensor } from '../families/exportTensor';
import type { ObservedRange, TfliteLayoutRecognizer } from '../families/modelFamily';
import {
  MODEL_FAMILIES,
  type RecognisedTfliteLayout,
  type TfliteFamilyKind,
} from '../families/registry';

export type { ObservedRange };

export interface UnrecognisedLayout {
  readonly kind: 'unrecognised';
  /** Why each known layout does not fit, for the refusal message. */
  readonly reasons: readonly string[];
}

export type TfliteLayout = RecognisedTfliteLayout | UnrecognisedLayout;

/** The layout found, with the recognizer that writes its manifest and the import's kind. */
export interface TfliteLayoutMatch {
  readonly layout: RecognisedTfliteLayout;
  readonly kind: TfliteFamilyKind;
  readonly recognizer: TfliteLayoutRecognizer<{ readonly kind: string }>;
}

/** The first family's layout that fits the tensors, else why none does. */
export function matchTfliteLayout(
  inputs: readonly ExportTensor[],
  outputs: readonly ExportTensor[],
  ranges: ReadonlyMap<string, ObservedRange> = new Map(),
): TfliteLayoutMatch | UnrecognisedLayout {
  const reasons: string[] = [];
  for (const f of MODEL_FAMILIES) {
    if (!('tflite' in f)) continue;
    const found = f.tflite.recognize(inputs, outputs, ranges);
    if (typeof found !== 'string')
      return { layout: found, kind: f.tflite.kind, recognizer: f.tflite };
    reasons.push(`not ${f.tflite.label}: ${found}`);
  }
  return { kind: 'unrecognised', reasons };
}

/** Which family's layout the converted model has (its tensors as the layout names them). */
export function recognizeTfliteLayout(
  inputs: readonly ExportTensor[],
  outputs: readonly ExportTensor[],
  ranges: ReadonlyMap<string, ObservedRange> = new Map(),
): TfliteLayout {
  const match = matchTfliteLayout(inputs, outputs, ranges);
  return 'layout' in match ? match.layout : match;
}
