import type { PipelineResult } from '../core/pipelineResult';
import type { ModelManifest } from '../config/modelManifest';
import { buildInstanceIdImage } from '../heads/buildInstanceIdImage';
import type { Annotation, AnnotatedBox } from './annotationTypes';
import type { Detection } from '../core/headResults';
import { detectionId } from '../core/detectionId';

function boxOf(d: Detection, names: readonly string[]): AnnotatedBox {
  const tracked = d.trackId;
  return {
    ...d.box,
    label: `${names[d.classId] ?? d.classId} ${d.score.toFixed(2)}${tracked === undefined ? '' : ` #${tracked}`}`,
    colorIndex: d.classId,
  };
}

/** What to draw for one model's result on its frame. */
export function resultAnnotation(
  result: PipelineResult,
  manifest: ModelManifest,
  width: number,
  height: number,
): Annotation {
  const names = manifest.classNames;
  switch (result.task) {
    case 'detect':
      return { boxes: result.detections.map((d) => boxOf(d, names)), keypoints: [] };
    case 'pose':
      return {
        boxes: result.poses.map((p) => ({
          ...boxOf(p, names),
          label: `person ${p.score.toFixed(2)}${p.trackId === undefined ? '' : ` #${p.trackId}`}`,
        })),
        keypoints: result.poses.map((p) => ({
          points: p.keypoints.map((k) => [k.x, k.y, k.score] as const),
          skeleton: result.skeleton.limbs,
          minScore: 0.5,
        })),
      };
    case 'segment': {
      // Each instance in its own colour (mask and box alike), by its id: with tracking the
      // colour follows the object from frame to frame.
      const ids = result.instances.map(detectionId);
      return {
        boxes: result.instances.map((d, i) => ({ ...boxOf(d, names), colorIndex: ids[i]! })),
        keypoints: [],
        labels: {
          width,
          height,
          labels: buildInstanceIdImage(
            result.instances.map((i) => i.mask),
            width,
            height,
          ),
          alpha: 0.45,
          // Label value i + 1 is instance i.
          colorIndices: [0, ...ids],
        },
      };
    }
    case 'semantic':
      return {
        boxes: [],
        keypoints: [],
        labels: { width, height, labels: result.map.data, alpha: 0.5 },
      };
  }
}
