import { checkTensorDims } from '../../heads/checkTensorDims';
import { HeadError } from '../../heads/headError';
import { checkImageTransform, mapPointToSource } from '../../heads/mapBoxToSource';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import type { Keypoint } from '../../core/headResults';
import type { ImageTransform, Tensor } from '../../core/tensor';

/** Values per landmark in the landmark tensor: x, y, z, visibility, presence. */
const LANDMARK_STRIDE = 5;

export interface BlazePoseLandmarks {
  /** The first `numKeypoints` landmarks in source pixels, score = sigmoid(visibility). */
  readonly keypoints: Keypoint[];
  /** The model's person-present output (a probability: MediaPipe keeps a pose from 0.5). */
  readonly personScore: number;
}

function sigmoid(v: number): number {
  return 1 / (1 + Math.exp(-v));
}

/**
 * One crop's BlazePose landmarks (MediaPipe pose_landmark, [1, 5 * N]: x, y in input pixels, z,
 * visibility and presence logits, N = 39 of which 33 are body points) back in source pixels
 * through the crop's transform. Visibility, not presence, becomes the keypoint score: it is what
 * MediaPipe reports as a landmark's visibility and what COCO's per-keypoint score means.
 */
export function decodeBlazePoseLandmarks(
  landmarks: Tensor,
  personScore: Tensor,
  transform: ImageTransform,
  numKeypoints: number,
): BlazePoseLandmarks {
  checkImageTransform(transform);
  const dims = checkTensorDims(landmarks, [2], 'BlazePose landmarks');
  if (dims[0] !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `BlazePose landmarks '${landmarks.name}' have batch ${dims[0]}, expected 1`,
    );
  }
  const available = Math.floor(dims[1]! / LANDMARK_STRIDE);
  if (dims[1]! % LANDMARK_STRIDE !== 0 || available < numKeypoints) {
    throw new HeadError(
      'BAD_SHAPE',
      `BlazePose landmarks '${landmarks.name}' hold ${dims[1]} values, expected 5 per landmark for at least ${numKeypoints}`,
    );
  }
  const v = readTensorAsFloat(landmarks);
  const keypoints: Keypoint[] = [];
  for (let i = 0; i < numKeypoints; i++) {
    const o = i * LANDMARK_STRIDE;
    const x = v[o]!;
    const y = v[o + 1]!;
    const visibility = v[o + 3]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      keypoints.push({ x: 0, y: 0, score: 0 });
      continue;
    }
    const p = mapPointToSource(transform, x, y);
    keypoints.push({
      x: p.x,
      y: p.y,
      score: Number.isFinite(visibility) ? sigmoid(visibility) : 0,
    });
  }
  const flag = readTensorAsFloat(personScore)[0];
  return { keypoints, personScore: flag !== undefined && Number.isFinite(flag) ? flag : 0 };
}
