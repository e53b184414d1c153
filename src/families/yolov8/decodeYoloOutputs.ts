import { ConfigError } from '../../core/configError';
import type { Tensor } from '../../core/tensor';
import { withFields } from '../../core/withFields';
import type { TensorSpec } from '../manifestParts';
import type { DecodeContext, HeadResult, RunOutputs } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeYoloDetections } from './decodeYoloDetections';
import { decodeYoloPose } from './decodeYoloPose';
import { decodeYoloSegmentation } from './decodeYoloSegmentation';
import type { YoloOutputs } from './yoloCandidateSource';

/** A segmentation model's prototypes and, in the AI Hub layout, its separate coefficients. */
export interface YoloMaskOutputs {
  readonly protos: (TensorSpec & { readonly layout: 'NCHW' | 'NHWC' }) | undefined;
  readonly maskCoefficients?: TensorSpec | undefined;
}

/**
 * The manifest's task decoded from any YOLO layout: the packed, end-to-end and AI Hub formats
 * differ only in how `yolo` is read, the heads are the same (end-to-end ones skip their NMS).
 */
export function decodeYoloOutputs(
  yolo: YoloOutputs,
  masks: YoloMaskOutputs,
  boxesNormalized: boolean,
  run: RunOutputs,
  ctx: DecodeContext,
): HeadResult {
  const m = ctx.manifest;
  const t = ctx.thresholds;
  // Every field in one literal, the decoders' own added by withFields (one hidden class each).
  const sel = {
    scoreThreshold: t.score,
    iouThreshold: t.iou,
    maxDetections: t.maxDetections,
    classes: t.classes,
    bestClasses: ctx.kernels.yoloBestClasses,
  };
  if (m.task === 'pose') {
    if (yolo.format === 'aihub')
      throw new ConfigError(`${m.name}: YOLOv8 pose needs an Ultralytics output`);
    const poses = decodeYoloPose(
      yolo.output,
      run.transform,
      withFields(sel, {
        numKeypoints: m.keypoints?.names.length,
        anchorsFirst: yolo.format === 'ultralytics' && (yolo.anchorsFirst ?? false),
        endToEnd: yolo.format === 'end2end',
        coordinatesNormalized: boxesNormalized,
      }),
    );
    return { task: 'pose', poses };
  }
  if (m.task === 'segment') {
    if (!masks.protos)
      throw new ConfigError(`${m.name}: a segmentation manifest must name its prototypes`);
    const coefficients: Tensor | undefined = masks.maskCoefficients
      ? outputNamed(run.outputs, masks.maskCoefficients.name, m.name)
      : undefined;
    const instances = decodeYoloSegmentation(
      {
        detections: yolo,
        protos: outputNamed(run.outputs, masks.protos.name, m.name),
        protosLayout: masks.protos.layout,
        ...(coefficients ? { maskCoefficients: coefficients } : {}),
      },
      run.transform,
      withFields(sel, { numClasses: m.classNames.length, boxesNormalized }),
    );
    return { task: 'segment', instances };
  }
  const detections = decodeYoloDetections(
    yolo,
    run.transform,
    withFields(sel, {
      numClasses: yolo.format === 'aihub' ? undefined : m.classNames.length,
      boxesNormalized,
    }),
  );
  return { task: 'detect', detections };
}
