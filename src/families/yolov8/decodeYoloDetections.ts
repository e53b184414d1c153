import type { Detection } from '../../core/headResults';
import { checkImageTransform, mapBoxToSource } from '../../heads/mapBoxToSource';
import {
  resolveYoloSelectOptions,
  selectYoloCandidates,
  YoloCandidates,
  YoloSelectOptions,
} from './selectYoloCandidates';
import type { ImageTransform } from '../../core/tensor';
import { yoloCandidateSource, YoloOutputs } from './yoloCandidateSource';

export interface YoloDetectOptions extends YoloSelectOptions {
  /**
   * When given, the output must hold exactly this many class scores (Ultralytics layout), or its
   * end-to-end rows name classes below it.
   */
  readonly numClasses?: number;
  /** Box values are fractions of the network input (Ultralytics TFLite exports). Default false. */
  readonly boxesNormalized?: boolean;
}

/**
 * YOLOv8 detect: decodes any export layout, applies score threshold, class filter and NMS in
 * network pixels (as Ultralytics does; end-to-end rows had theirs inside the model, so only the
 * threshold, filter and cap apply), then maps boxes to source pixels. Detections whose box
 * lies wholly outside the source image (in the letterbox padding) are dropped. Best score first.
 */
export function decodeYoloDetections(
  outputs: YoloOutputs,
  transform: ImageTransform,
  options: YoloDetectOptions = {},
): Detection[] {
  checkImageTransform(transform);
  const resolved = resolveYoloSelectOptions(options);
  const info = yoloCandidateSource(
    outputs,
    0,
    transform,
    options.boxesNormalized ?? false,
    options.numClasses,
    'YOLOv8 detect',
  );
  const cands = selectYoloCandidates(info.source, resolved);
  return mapYoloCandidates(cands, transform).map((k) => k.detection);
}

/** Maps survivors to source pixels; `index` is the survivor's position in `cands`. */
export function mapYoloCandidates(
  cands: YoloCandidates,
  transform: ImageTransform,
): { detection: Detection; index: number }[] {
  const out: { detection: Detection; index: number }[] = [];
  for (let j = 0; j < cands.count; j++) {
    const b = cands.boxes;
    const box = mapBoxToSource(transform, b[4 * j]!, b[4 * j + 1]!, b[4 * j + 2]!, b[4 * j + 3]!);
    if (!(box.x2 > box.x1 && box.y2 > box.y1)) continue;
    out.push({
      detection: { box, classId: cands.classIds[j]!, score: cands.scores[j]! },
      index: j,
    });
  }
  return out;
}
