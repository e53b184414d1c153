import { checkTensorDims } from '../../heads/checkTensorDims';
import { HeadError } from '../../heads/headError';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import type { YoloCandidateSource } from './selectYoloCandidates';
import type { ImageTransform, Tensor } from '../../core/tensor';

/** The raw outputs of a YOLOv8 detect or seg model, in one of its export layouts. */
export type YoloOutputs =
  | {
      /**
       * Ultralytics: one tensor [1, 4 + C (+ extra), N] (rank 2 without the batch is accepted):
       * cx, cy, w, h in network pixels, then C sigmoided class scores, then extra channels (the 32
       * mask coefficients of seg). `anchorsFirst` says the tensor is [1, N, channels] instead.
       */
      readonly format: 'ultralytics';
      readonly output: Tensor;
      readonly anchorsFirst?: boolean;
    }
  | {
      /**
       * Ultralytics end-to-end (NMS inside the graph: `nms=True` exports, YOLOv10, YOLO26):
       * [1, N, 6 + extra] rows x1, y1, x2, y2 in network pixels, score, class id (a float), then
       * the extra values (the mask coefficients of seg); zero rows pad the tensor to N.
       */
      readonly format: 'end2end';
      readonly output: Tensor;
    }
  | {
      /** AI Hub: boxes [1, N, 4] x1 y1 x2 y2 network pixels, scores [1, N], class_idx [1, N]. */
      readonly format: 'aihub';
      readonly boxes: Tensor;
      readonly scores: Tensor;
      readonly classIdx: Tensor;
    };

export interface YoloSourceInfo {
  readonly source: YoloCandidateSource;
  readonly numClasses: number;
  readonly numAnchors: number;
  /** Ultralytics layouts only: the whole output as float, and where channel `offset` starts. */
  readonly extra?: {
    readonly data: Float32Array;
    readonly channelStride: number;
    readonly anchorStride: number;
    readonly offset: number;
  };
}

/**
 * Validates the shapes and builds the candidate source. `extraChannels` is how many channels
 * follow the class scores in the Ultralytics layout (0 for detect, the mask coefficient count for
 * seg). `boxesNormalized` means box values are fractions of the network input (TFLite exports).
 */
export function yoloCandidateSource(
  outputs: YoloOutputs,
  extraChannels: number,
  transform: ImageTransform,
  boxesNormalized: boolean,
  expectedClasses: number | undefined,
  what: string,
): YoloSourceInfo {
  const boxScaleX = boxesNormalized ? transform.dstWidth : 1;
  const boxScaleY = boxesNormalized ? transform.dstHeight : 1;
  if (outputs.format === 'ultralytics') {
    const t = outputs.output;
    const dims = checkTensorDims(t, [2, 3], `${what} output`);
    if (dims.length === 3 && dims[0] !== 1) {
      throw new HeadError(
        'BAD_SHAPE',
        `${what} output '${t.name}' has batch ${dims[0]}, expected 1`,
      );
    }
    const a = dims[dims.length - 2]!;
    const b = dims[dims.length - 1]!;
    const channels = outputs.anchorsFirst ? b : a;
    const numAnchors = outputs.anchorsFirst ? a : b;
    const numClasses = channels - 4 - extraChannels;
    if (numClasses < 1) {
      throw new HeadError(
        'BAD_SHAPE',
        `${what} output '${t.name}' dims [${dims.join(', ')}]: ${channels} channels leave no class scores after 4 box${extraChannels ? ` and ${extraChannels} mask` : ''} channels`,
      );
    }
    checkClasses(expectedClasses, numClasses, what, t.name);
    const data = readTensorAsFloat(t);
    const channelStride = outputs.anchorsFirst ? 1 : numAnchors;
    const anchorStride = outputs.anchorsFirst ? channels : 1;
    return {
      source: {
        kind: 'channels',
        data,
        numAnchors,
        channelStride,
        anchorStride,
        numClasses,
        boxScaleX,
        boxScaleY,
      },
      numClasses,
      numAnchors,
      extra: { data, channelStride, anchorStride, offset: 4 + numClasses },
    };
  }
  if (outputs.format === 'end2end') {
    const t = outputs.output;
    const dims = checkTensorDims(t, [2, 3], `${what} end-to-end output`);
    const numAnchors = dims[dims.length - 2]!;
    const width = dims[dims.length - 1]!;
    if ((dims.length === 3 && dims[0] !== 1) || width !== 6 + extraChannels) {
      throw new HeadError(
        'BAD_SHAPE',
        `${what} end-to-end output '${t.name}' has dims [${dims.join(', ')}], expected [1, N, ${6 + extraChannels}] (x1, y1, x2, y2, score, class${extraChannels ? ` and ${extraChannels} mask coefficients` : ''})`,
      );
    }
    const data = readTensorAsFloat(t);
    return {
      source: {
        kind: 'rows',
        data,
        numAnchors,
        rowStride: width,
        numClasses: expectedClasses,
        boxScaleX,
        boxScaleY,
      },
      numClasses: expectedClasses ?? 0,
      numAnchors,
      extra: { data, channelStride: 1, anchorStride: width, offset: 6 },
    };
  }
  const bd = checkTensorDims(outputs.boxes, [2, 3], `${what} boxes`);
  const sd = checkTensorDims(outputs.scores, [1, 2], `${what} scores`);
  const cd = checkTensorDims(outputs.classIdx, [1, 2], `${what} class_idx`);
  const numAnchors = bd[bd.length - 2]!;
  if (bd[bd.length - 1] !== 4 || (bd.length === 3 && bd[0] !== 1)) {
    throw new HeadError(
      'BAD_SHAPE',
      `${what} boxes '${outputs.boxes.name}' has dims [${bd.join(', ')}], expected [1, N, 4]`,
    );
  }
  for (const [d, t] of [
    [sd, outputs.scores],
    [cd, outputs.classIdx],
  ] as const) {
    const n = d[d.length - 1]!;
    if (n !== numAnchors || (d.length === 2 && d[0] !== 1)) {
      throw new HeadError(
        'BAD_SHAPE',
        `${what} '${t.name}' has dims [${d.join(', ')}], expected [1, ${numAnchors}] to match boxes`,
      );
    }
  }
  return {
    source: {
      kind: 'split',
      boxes: readTensorAsFloat(outputs.boxes),
      scores: readTensorAsFloat(outputs.scores),
      classIds: readTensorAsFloat(outputs.classIdx),
      numAnchors,
      boxScaleX,
      boxScaleY,
    },
    numClasses: expectedClasses ?? 0,
    numAnchors,
  };
}

function checkClasses(
  expected: number | undefined,
  actual: number,
  what: string,
  name: string,
): void {
  if (expected !== undefined && expected !== actual) {
    throw new HeadError(
      'BAD_SHAPE',
      `${what} output '${name}' holds ${actual} class scores but the model declares ${expected} classes`,
    );
  }
}
