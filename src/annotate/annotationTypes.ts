/** What an annotated image shows, in source-image pixels. Built from any head's results. */
export interface AnnotatedBox {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  /** Text drawn above the box, e.g. "person 0.91". */
  readonly label: string;
  /** Picks the colour; the class id keeps colours stable across frames. */
  readonly colorIndex: number;
}

export interface AnnotatedKeypoints {
  /** [x, y, score] per keypoint, in the skeleton's order. */
  readonly points: readonly (readonly [number, number, number])[];
  /** Pairs of 0-based keypoint indices to join with a line. */
  readonly skeleton: readonly (readonly [number, number])[];
  /** Keypoints below this score are not drawn (COCO convention: 0.5). */
  readonly minScore: number;
}

/** A label image at source resolution: 0 is left untinted, other values pick a palette colour. */
export interface AnnotatedLabels {
  readonly width: number;
  readonly height: number;
  readonly labels: Uint8Array | Uint16Array;
  /** Opacity of the tint, 0..1. */
  readonly alpha: number;
  /**
   * Palette index of each label value (instance masks: the instance's or track's id, so a mask and
   * its box share a colour); a label without an entry uses its own value.
   */
  readonly colorIndices?: readonly number[];
}

export interface Annotation {
  readonly boxes: readonly AnnotatedBox[];
  readonly keypoints: readonly AnnotatedKeypoints[];
  readonly labels?: AnnotatedLabels;
  /** One line drawn in the top-left corner (processor, fps, latency for teleop). */
  readonly badge?: string;
}
