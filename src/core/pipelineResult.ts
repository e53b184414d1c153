/**
 * What one model's pipeline returns for a frame, by task, with where the frame's time went: the
 * vocabulary the nodes, annotation and INT8 validation share with the pipeline that makes it.
 */
import type { Detection, PersonPose, SegmentedDetection, SemanticMap } from './headResults';

export interface StageTimings {
  /** Summed over every engine run of the frame (HRNet runs once per person). */
  readonly preprocessMs: number;
  readonly inferenceMs: number;
  /** Waiting for a libuv worker. */
  readonly queueMs: number;
  /** Engine calls from run() to their result in hand here (queue, preprocess, inference, return). */
  readonly engineMs: number;
  readonly headMs: number;
  readonly totalMs: number;
  readonly runs: number;
}

/** The timings of a result no engine produced (a reference's, a synthetic one). */
export const NO_STAGE_TIMINGS: StageTimings = {
  preprocessMs: 0,
  inferenceMs: 0,
  queueMs: 0,
  engineMs: 0,
  headMs: 0,
  totalMs: 0,
  runs: 0,
};

/**
 * The keypoint order of a pose result: its name as PersonPose.skeleton carries it ('coco17',
 * 'blazepose33', or the model's name for a model-specific order) and the limbs to draw.
 */
export interface Skeleton {
  readonly name: string;
  readonly limbs: readonly (readonly [number, number])[];
}

export type PipelineResult =
  | { readonly task: 'detect'; readonly detections: Detection[]; readonly timings: StageTimings }
  | {
      readonly task: 'pose';
      readonly poses: PersonPose[];
      readonly skeleton: Skeleton;
      readonly timings: StageTimings;
    }
  | {
      readonly task: 'segment';
      readonly instances: SegmentedDetection[];
      readonly timings: StageTimings;
    }
  | { readonly task: 'semantic'; readonly map: SemanticMap; readonly timings: StageTimings };
