import { COCO_KEYPOINT_NAMES } from '../../heads/cocoKeypoints';
import { cocoManifestKeypoints } from '../cocoManifestKeypoints';
import { exportOutput, fixedDim, specOf } from '../exportTensor';
import type { AihubImport, ImportedManifest } from '../modelFamily';

/** AI Hub's HRNetPose: one output named heatmaps, [1, K, H/4, W/4] or [1, H/4, W/4, K]. */
export function readAihubHeatmaps(x: AihubImport): ImportedManifest | undefined {
  const assumptions: string[] = [];
  const heatmaps = exportOutput(x.model, 'heatmaps');
  // Alone among the outputs (by name).
  if (!heatmaps || new Set(x.model.outputs.map((o) => o.name)).size !== 1) return undefined;
  const d = heatmaps.dims;
  const layout =
    d.length !== 4
      ? undefined
      : d[2] === x.input.height / 4 && d[3] === x.input.width / 4
        ? 'NCHW'
        : d[1] === x.input.height / 4 && d[2] === x.input.width / 4
          ? 'NHWC'
          : undefined;
  if (layout === undefined) {
    x.refuse(`'heatmaps' is not [1, K, H/4, W/4] or [1, H/4, W/4, K]`);
  }
  const k = fixedDim(layout === 'NCHW' ? d[1] : d[3]) ?? 0;
  if (k !== COCO_KEYPOINT_NAMES.length) {
    x.refuse(`${k} heatmaps; only COCO's 17 keypoints are known`);
  }
  assumptions.push('normalization inside the model (AI Hub HRNet): input is plain RGB 0..1');
  const data = {
    ...x.base,
    task: 'pose',
    family: 'hrnet',
    input: x.inputWith({ mode: 'stretch' }),
    outputs: { format: 'heatmaps', heatmaps: { ...specOf(heatmaps), layout } },
    classNames: ['person'],
    keypoints: cocoManifestKeypoints(),
    provenance: x.provenance('HRNetPose'),
  };
  return { data, assumptions };
}
