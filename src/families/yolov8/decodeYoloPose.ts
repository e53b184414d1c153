import { checkTensorDims } from '../../heads/checkTensorDims';
import { mapYoloCandidates } from './decodeYoloDetections';
import { HeadError } from '../../heads/headError';
import type { Keypoint, PersonPose } from '../../core/headResults';
import { checkImageTransform, mapPointToSource } from '../../heads/mapBoxToSource';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import {
  resolveYoloSelectOptions,
  selectYoloCandidates,
  YoloSelectOptions,
} from './selectYoloCandidates';
import type { ImageTransform, Tensor } from '../../core/tensor';
import { withFields } from '../../core/withFields';

export interface YoloPoseOptions extends YoloSelectOptions {
  /** When given, the output must hold exactly this many keypoints (manifest kpt_shape[0]). */
  readonly numKeypoints?: number;
  /** Values per keypoint: 3 = x, y, visibility (default); 2 = x, y only (score reported as 1). */
  readonly keypointDims?: 2 | 3;
  /** The tensor is [1, N, channels] instead of [1, channels, N]. */
  readonly anchorsFirst?: boolean;
  /**
   * Ultralytics end-to-end rows [1, N, 6 + K * D]: x1, y1, x2, y2, score, class, then the
   * keypoints; NMS already ran inside the model, so only threshold, filter and cap apply here.
   */
  readonly endToEnd?: boolean;
  /** Box and keypoint x, y are fractions of the network input (TFLite exports). Default false. */
  readonly coordinatesNormalized?: boolean;
}

/**
 * YOLOv8 pose, Ultralytics layout [1, 5 + K * D, N]: cx, cy, w, h, person score, then per keypoint
 * x, y (network pixels) and, when D = 3, its sigmoided visibility. K comes from the dims. NMS as
 * for detect (single class); keypoints are mapped to source pixels and clamped to the image.
 * End-to-end exports (`endToEnd`) give rows [1, N, 6 + K * D] of x1, y1, x2, y2, score, class 0,
 * then the same keypoint values.
 */
export function decodeYoloPose(
  output: Tensor,
  transform: ImageTransform,
  options: YoloPoseOptions = {},
): PersonPose[] {
  checkImageTransform(transform);
  const resolved = resolveYoloSelectOptions(options);
  const dims = checkTensorDims(output, [2, 3], 'YOLOv8 pose output');
  if (dims.length === 3 && dims[0] !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `YOLOv8 pose output '${output.name}' has batch ${dims[0]}, expected 1`,
    );
  }
  const e2e = options.endToEnd ?? false;
  if (e2e && options.anchorsFirst) {
    throw new HeadError('BAD_OPTION', 'endToEnd rows are anchors-first already: drop anchorsFirst');
  }
  const rowsFirst = e2e || (options.anchorsFirst ?? false);
  const a = dims[dims.length - 2]!;
  const b = dims[dims.length - 1]!;
  const channels = rowsFirst ? b : a;
  const numAnchors = rowsFirst ? a : b;
  const kd = options.keypointDims ?? 3;
  if (kd !== 2 && kd !== 3)
    throw new HeadError('BAD_OPTION', `keypointDims must be 2 or 3, got ${String(kd)}`);
  // Channel of the first keypoint: after cx, cy, w, h, score, or after x1, y1, x2, y2, score, class.
  const first = e2e ? 6 : 5;
  const k = (channels - first) / kd;
  if (!Number.isInteger(k) || k < 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `YOLOv8 pose output '${output.name}' dims [${dims.join(', ')}]: ${channels} channels are not ${first} + K x ${kd}`,
    );
  }
  if (options.numKeypoints !== undefined && options.numKeypoints !== k) {
    throw new HeadError(
      'BAD_SHAPE',
      `YOLOv8 pose output '${output.name}' holds ${k} keypoints but the model declares ${options.numKeypoints}`,
    );
  }
  const data = readTensorAsFloat(output);
  const cs = rowsFirst ? 1 : numAnchors;
  const as = rowsFirst ? channels : 1;
  const norm = options.coordinatesNormalized ?? false;
  const sx = norm ? transform.dstWidth : 1;
  const sy = norm ? transform.dstHeight : 1;
  const cands = selectYoloCandidates(
    e2e
      ? {
          kind: 'rows',
          data,
          numAnchors,
          rowStride: channels,
          numClasses: 1,
          boxScaleX: sx,
          boxScaleY: sy,
        }
      : {
          kind: 'channels',
          data,
          numAnchors,
          channelStride: cs,
          anchorStride: as,
          numClasses: 1,
          boxScaleX: sx,
          boxScaleY: sy,
        },
    resolved,
  );
  return mapYoloCandidates(cands, transform).map(({ detection, index }) => {
    const base = cands.anchors[index]! * as;
    const keypoints: Keypoint[] = [];
    for (let j = 0; j < k; j++) {
      const ch = first + j * kd;
      const p = mapPointToSource(
        transform,
        data[base + ch * cs]! * sx,
        data[base + (ch + 1) * cs]! * sy,
      );
      keypoints.push({ x: p.x, y: p.y, score: kd === 3 ? data[base + (ch + 2) * cs]! : 1 });
    }
    return withFields(detection, { keypoints });
  });
}
