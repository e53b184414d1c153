import { checkTensorDims } from '../../heads/checkTensorDims';
import { mapYoloCandidates } from './decodeYoloDetections';
import { HeadError } from '../../heads/headError';
import type { Box, InstanceMask, SegmentedDetection } from '../../core/headResults';
import { checkImageTransform } from '../../heads/mapBoxToSource';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import {
  resolveYoloSelectOptions,
  selectYoloCandidates,
  YoloSelectOptions,
} from './selectYoloCandidates';
import type { ImageTransform, Tensor } from '../../core/tensor';
import { yoloCandidateSource, YoloOutputs } from './yoloCandidateSource';
import { withFields } from '../../core/withFields';

export interface YoloSegOutputs {
  /**
   * Ultralytics `output0` [1, 4 + C + M, N], its end-to-end form [1, N, 6 + M], or AI Hub boxes /
   * scores / class_idx.
   */
  readonly detections: YoloOutputs;
  /** AI Hub only: `mask_coeffs` [1, N, M]. Ultralytics carries them in output0 (both layouts). */
  readonly maskCoefficients?: Tensor;
  /** Prototypes: [1, M, Mh, Mw] (NCHW) or [1, Mh, Mw, M] (NHWC, TFLite/QNN compiled). */
  readonly protos: Tensor;
  /** Default 'NCHW'. */
  readonly protosLayout?: 'NCHW' | 'NHWC';
}

export interface YoloSegOptions extends YoloSelectOptions {
  readonly numClasses?: number;
  readonly boxesNormalized?: boolean;
}

/**
 * YOLOv8 seg: detections as for detect (end-to-end rows: no NMS of ours), then per instance the mask logit field
 * coefficients x prototypes, cropped to the box in prototype space (Ultralytics crop_mask: proto
 * pixel (c, r) is inside when x1 <= c < x2 and y1 <= r < y2, zero elsewhere), sampled bilinearly
 * (half-pixel centres) at each source pixel centre inside the source box, on when the logit > 0
 * (sigmoid > 0.5). Only the box region is computed and stored. Best score first; instance id i + 1.
 */
export function decodeYoloSegmentation(
  outputs: YoloSegOutputs,
  transform: ImageTransform,
  options: YoloSegOptions = {},
): SegmentedDetection[] {
  checkImageTransform(transform);
  const resolved = resolveYoloSelectOptions(options);
  const nhwc = (outputs.protosLayout ?? 'NCHW') === 'NHWC';
  const pd = checkTensorDims(outputs.protos, [3, 4], 'YOLOv8 seg protos');
  if (pd.length === 4 && pd[0] !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `YOLOv8 seg protos '${outputs.protos.name}' has batch ${pd[0]}, expected 1`,
    );
  }
  const [p0, p1, p2] = pd.slice(-3) as [number, number, number];
  const nm = nhwc ? p2 : p0;
  const mh = nhwc ? p0 : p1;
  const mw = nhwc ? p1 : p2;
  if (nm < 1 || mh < 1 || mw < 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `YOLOv8 seg protos '${outputs.protos.name}' has empty dims [${pd.join(', ')}]`,
    );
  }
  const info = yoloCandidateSource(
    outputs.detections,
    outputs.detections.format === 'aihub' ? 0 : nm,
    transform,
    options.boxesNormalized ?? false,
    options.numClasses,
    'YOLOv8 seg',
  );

  // coefficient c of anchor a lives at coef[a * aStride + c * cStride]
  let coef: Float32Array;
  let aStride: number;
  let cStride: number;
  let cOffset: number;
  if (outputs.detections.format !== 'aihub') {
    const ex = info.extra!;
    coef = ex.data;
    aStride = ex.anchorStride;
    cStride = ex.channelStride;
    cOffset = ex.offset * ex.channelStride;
  } else {
    const mc = outputs.maskCoefficients;
    if (mc === undefined) {
      throw new HeadError(
        'BAD_SHAPE',
        'YOLOv8 seg in the AI Hub layout needs the mask_coeffs tensor',
      );
    }
    const md = checkTensorDims(mc, [2, 3], 'YOLOv8 seg mask_coeffs');
    if (
      md[md.length - 2] !== info.numAnchors ||
      md[md.length - 1] !== nm ||
      (md.length === 3 && md[0] !== 1)
    ) {
      throw new HeadError(
        'BAD_SHAPE',
        `YOLOv8 seg mask_coeffs '${mc.name}' has dims [${md.join(', ')}], expected [1, ${info.numAnchors}, ${nm}]`,
      );
    }
    coef = readTensorAsFloat(mc);
    aStride = nm;
    cStride = 1;
    cOffset = 0;
  }

  const protos = readTensorAsFloat(outputs.protos);
  const cands = selectYoloCandidates(info.source, resolved);
  const mapped = mapYoloCandidates(cands, transform);
  const coeffs = new Float32Array(nm);
  return mapped.map(({ detection, index }) => {
    const a = cands.anchors[index]!;
    for (let c = 0; c < nm; c++) coeffs[c] = coef[cOffset + a * aStride + c * cStride]!;
    const b = cands.boxes;
    const mask = instanceMask(
      detection.box,
      b[4 * index]! * (mw / transform.dstWidth),
      b[4 * index + 1]! * (mh / transform.dstHeight),
      b[4 * index + 2]! * (mw / transform.dstWidth),
      b[4 * index + 3]! * (mh / transform.dstHeight),
      coeffs,
      protos,
      nhwc,
      nm,
      mh,
      mw,
      transform,
    );
    return withFields(detection, { mask });
  });
}

function instanceMask(
  box: Box,
  px1: number,
  py1: number,
  px2: number,
  py2: number,
  coeffs: Float32Array,
  protos: Float32Array,
  nhwc: boolean,
  nm: number,
  mh: number,
  mw: number,
  t: ImageTransform,
): InstanceMask {
  // Source pixels whose centre lies inside the box.
  const u0 = Math.max(0, Math.ceil(box.x1 - 0.5));
  const v0 = Math.max(0, Math.ceil(box.y1 - 0.5));
  const u1 = Math.min(t.srcWidth - 1, Math.ceil(box.x2 - 0.5) - 1);
  const v1 = Math.min(t.srcHeight - 1, Math.ceil(box.y2 - 0.5) - 1);
  const width = Math.max(0, u1 - u0 + 1);
  const height = Math.max(0, v1 - v0 + 1);
  const data = new Uint8Array(width * height);
  if (width === 0 || height === 0) return { x: u0, y: v0, width, height, data };

  // Separable bilinear sampling positions in proto space, per source column and row.
  const cols = protoAxis(width, u0, t.crop.x, t.scaleX, t.padX, mw / t.dstWidth, mw);
  const rows = protoAxis(height, v0, t.crop.y, t.scaleY, t.padY, mh / t.dstHeight, mh);
  const { i0: cx0, frac: cfx, min: cMin, max: cMax } = cols;
  const { i0: rx0, frac: rfy, min: rMin, max: rMax } = rows;

  // Cropped logit field over the proto window the samples touch; zero outside the proto box.
  const fw = cMax - cMin + 1;
  const fh = rMax - rMin + 1;
  const field = new Float32Array(fw * fh);
  const plane = mh * mw;
  for (let r = rMin; r <= rMax; r++) {
    if (!(r >= py1 && r < py2)) continue;
    for (let c = cMin; c <= cMax; c++) {
      if (!(c >= px1 && c < px2)) continue;
      let s = 0;
      if (nhwc) {
        const base = (r * mw + c) * nm;
        for (let k = 0; k < nm; k++) s += coeffs[k]! * protos[base + k]!;
      } else {
        const base = r * mw + c;
        for (let k = 0; k < nm; k++) s += coeffs[k]! * protos[base + k * plane]!;
      }
      field[(r - rMin) * fw + (c - cMin)] = s;
    }
  }

  for (let j = 0; j < height; j++) {
    const r0 = rx0[j]! - rMin;
    const r1 = Math.min(rx0[j]! + 1, mh - 1) - rMin;
    const fy = rfy[j]!;
    const row0 = r0 * fw;
    const row1 = r1 * fw;
    const out = j * width;
    for (let i = 0; i < width; i++) {
      const c0 = cx0[i]! - cMin;
      const c1 = Math.min(cx0[i]! + 1, mw - 1) - cMin;
      const fx = cfx[i]!;
      const top = field[row0 + c0]! + (field[row0 + c1]! - field[row0 + c0]!) * fx;
      const bottom = field[row1 + c0]! + (field[row1 + c1]! - field[row1 + c0]!) * fx;
      if (top + (bottom - top) * fy > 0) data[out + i] = 1;
    }
  }
  return { x: u0, y: v0, width, height, data };
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * For `n` consecutive source pixels starting at `first` along one axis: the proto cell left of
 * (or above) each pixel centre, the bilinear weight of the next cell, and the span of cells used.
 */
function protoAxis(
  n: number,
  first: number,
  cropStart: number,
  scale: number,
  pad: number,
  protoPerNet: number,
  cells: number,
): { i0: Int32Array; frac: Float32Array; min: number; max: number } {
  const i0 = new Int32Array(n);
  const frac = new Float32Array(n);
  let min = cells;
  let max = -1;
  for (let k = 0; k < n; k++) {
    const p = clamp(
      ((first + k + 0.5 - cropStart) * scale + pad) * protoPerNet - 0.5,
      0,
      cells - 1,
    );
    const f = Math.floor(p);
    i0[k] = f;
    frac[k] = p - f;
    min = Math.min(min, f);
    max = Math.max(max, Math.min(f + 1, cells - 1));
  }
  return { i0, frac, min, max };
}
