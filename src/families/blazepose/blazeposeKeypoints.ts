/**
 * The 33 BlazePose body landmarks, in model output order (the first 33 of the landmark model's
 * 39; names as MediaPipe's pose solution documents them).
 */
// prettier-ignore
export const BLAZEPOSE_KEYPOINT_NAMES: readonly string[] = Object.freeze([
  'nose', 'left_eye_inner', 'left_eye', 'left_eye_outer', 'right_eye_inner', 'right_eye',
  'right_eye_outer', 'left_ear', 'right_ear', 'mouth_left', 'mouth_right', 'left_shoulder',
  'right_shoulder', 'left_elbow', 'right_elbow', 'left_wrist', 'right_wrist', 'left_pinky',
  'right_pinky', 'left_index', 'right_index', 'left_thumb', 'right_thumb', 'left_hip', 'right_hip',
  'left_knee', 'right_knee', 'left_ankle', 'right_ankle', 'left_heel', 'right_heel',
  'left_foot_index', 'right_foot_index',
]);

/**
 * MediaPipe's 35 pose connections as 0-based landmark index pairs: face, arms and hands, torso,
 * legs and feet.
 */
// prettier-ignore
const CONNECTIONS: readonly (readonly [number, number])[] = [
  [0, 1], [1, 2], [2, 3], [3, 7], [0, 4], [4, 5], [5, 6], [6, 8], [9, 10],
  [11, 12], [11, 13], [13, 15], [15, 17], [15, 19], [15, 21], [17, 19],
  [12, 14], [14, 16], [16, 18], [16, 20], [16, 22], [18, 20],
  [11, 23], [12, 24], [23, 24],
  [23, 25], [24, 26], [25, 27], [26, 28], [27, 29], [28, 30], [29, 31], [30, 32], [27, 31], [28, 32],
];

export const BLAZEPOSE_SKELETON: readonly (readonly [number, number])[] = Object.freeze(
  CONNECTIONS.map(([a, b]) => Object.freeze([a, b] as const)),
);
