import type { PipelineResult } from '../pipeline/modelPipeline';
import type { ModelManifest } from '../config/modelManifest';
import { buildInstanceIdImage } from '../heads/buildInstanceIdImage';
import type { Annotation, AnnotatedBox } from './annotationTypes';
import type { Detection } from '../heads/headResults';
import { detectionId } from '../heads/detectionId';

/** `#7 ` for a tracked object, so operators see the id that ~/detections carries. */
function trackTag(d: Detection): string {
  return d.trackId === undefined ? '' : `#${d.trackId} `;
}

function boxOf(d: Detection, names: readonly string[]): AnnotatedBox {
  return {
    ...d.box,
    label: `${trackTag(d)}${names[d.classId] ?? d.classId} ${d.score.toFixed(2)}`,
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
  const skeleton = manifest.keypoints?.skeleton ?? [];
  switch (result.task) {
    case 'detect':
      return { boxes: result.detections.map((d) => boxOf(d, names)), keypoints: [] };
    case 'pose':
      return {
        boxes: result.poses.map((p) => ({
          ...boxOf(p, names),
          label: `${trackTag(p)}person ${p.score.toFixed(2)}`,
        })),
        keypoints: result.poses.map((p) => ({
          points: p.keypoints.map((k) => [k.x, k.y, k.score] as const),
          skeleton,
          minScore: 0.5,
        })),
      };
    case 'segment':
      return {
        boxes: result.instances.map((d) => boxOf(d, names)),
        keypoints: [],
        labels: {
          width,
          height,
          labels: buildInstanceIdImage(
            result.instances.map((i) => i.mask),
            width,
            height,
            result.instances.map(detectionId),
          ),
          alpha: 0.45,
        },
      };
    case 'semantic':
      return {
        boxes: [],
        keypoints: [],
        labels: { width, height, labels: result.map.data, alpha: 0.5 },
      };
  }
}
