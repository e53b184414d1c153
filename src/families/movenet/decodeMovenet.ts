import type { Keypoint, PersonPose } from '../../core/headResults';
import type { ImageTransform, Tensor } from '../../core/tensor';
import { checkTensorDims } from '../../heads/checkTensorDims';
import { HeadError } from '../../heads/headError';
import { checkImageTransform, mapBoxToSource, mapPointToSource } from '../../heads/mapBoxToSource';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';

/** MoveNet's values per keypoint: y, x (fractions of the network input), score. */
const PER_KEYPOINT = 3;
/** MultiPose's values per person after its keypoints: ymin, xmin, ymax, xmax, score. */
const PER_BOX = 5;

export interface MovenetMultiposeOptions {
  /** Keep a person whose score is strictly above this. */
  readonly scoreThreshold: number;
  readonly maxDetections: number;
  readonly numKeypoints: number;
}

/**
 * MoveNet MultiPose, [1, P, 3K + 5]: each row a person, K keypoints (y, x, score) then the box
 * (ymin, xmin, ymax, xmax) and the person's score, coordinates as fractions of the network input.
 * The model ranks and suppresses its people itself; here each one above the threshold is mapped
 * to source pixels, best first, at most `maxDetections`. Class 0 (person).
 */
export function decodeMovenetMultipose(
  output: Tensor,
  transform: ImageTransform,
  o: MovenetMultiposeOptions,
): PersonPose[] {
  checkImageTransform(transform);
  const d = checkTensorDims(output, [3], 'MoveNet MultiPose output');
  const width = PER_KEYPOINT * o.numKeypoints + PER_BOX;
  if (d[0] !== 1 || d[2] !== width) {
    throw new HeadError(
      'BAD_SHAPE',
      `MoveNet MultiPose output '${output.name}' has dims [${d.join(', ')}], expected [1, P, ${width}] (${o.numKeypoints} keypoints x (y, x, score), then ymin, xmin, ymax, xmax, score)`,
    );
  }
  const v = readTensorAsFloat(output);
  const people: PersonPose[] = [];
  for (let p = 0; p < d[1]!; p++) {
    const row = p * width;
    const box = row + PER_KEYPOINT * o.numKeypoints;
    const score = v[box + 4]!;
    if (!(score > o.scoreThreshold)) continue;
    const w = transform.dstWidth;
    const h = transform.dstHeight;
    people.push({
      box: mapBoxToSource(
        transform,
        v[box + 1]! * w,
        v[box]! * h,
        v[box + 3]! * w,
        v[box + 2]! * h,
      ),
      classId: 0,
      score,
      keypoints: keypointsAt(v, row, o.numKeypoints, transform),
    });
  }
  people.sort((a, b) => b.score - a.score);
  return people.slice(0, o.maxDetections);
}

/**
 * MoveNet Lightning / Thunder on one person's crop, [1, 1, K, 3]: the keypoints (y, x, score)
 * as fractions of the crop, mapped to source pixels through the crop's transform.
 */
export function decodeMovenetSinglepose(
  output: Tensor,
  transform: ImageTransform,
  numKeypoints: number,
): Keypoint[] {
  checkImageTransform(transform);
  const d = checkTensorDims(output, [4], 'MoveNet keypoints');
  if (d[0] !== 1 || d[1] !== 1 || d[2] !== numKeypoints || d[3] !== PER_KEYPOINT) {
    throw new HeadError(
      'BAD_SHAPE',
      `MoveNet keypoints '${output.name}' has dims [${d.join(', ')}], expected [1, 1, ${numKeypoints}, 3] (y, x, score)`,
    );
  }
  return keypointsAt(readTensorAsFloat(output), 0, numKeypoints, transform);
}

function keypointsAt(
  v: Float32Array,
  offset: number,
  count: number,
  transform: ImageTransform,
): Keypoint[] {
  const out: Keypoint[] = [];
  for (let k = 0; k < count; k++) {
    const i = offset + PER_KEYPOINT * k;
    const p = mapPointToSource(
      transform,
      v[i + 1]! * transform.dstWidth,
      v[i]! * transform.dstHeight,
    );
    out.push({ x: p.x, y: p.y, score: v[i + 2]! });
  }
  return out;
}
