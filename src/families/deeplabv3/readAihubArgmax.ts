import { VOC_CLASS_NAMES } from '../../heads/vocClassNames';
import { exportOutput, specOf } from '../exportTensor';
import type { AihubImport, ImportedManifest } from '../modelFamily';

/** AI Hub's DeepLabV3 with the argmax inside: one output named mask, [1, H, W]. */
export function readAihubArgmax(x: AihubImport): ImportedManifest | undefined {
  const assumptions: string[] = [];
  const mask = exportOutput(x.model, 'mask');
  // Alone among the outputs (by name).
  if (!mask || new Set(x.model.outputs.map((o) => o.name)).size !== 1) return undefined;
  if (mask.dims.length !== 3) x.refuse(`'mask' is not [1, H, W]`);
  assumptions.push('class names: the 21 PASCAL VOC classes (AI Hub DeepLabV3 default)');
  const data = {
    ...x.base,
    task: 'semantic',
    family: 'deeplabv3',
    input: x.inputWith({ mode: 'stretch' }),
    outputs: { format: 'semantic-argmax', mask: specOf(mask) },
    classNames: [...VOC_CLASS_NAMES],
    provenance: x.provenance('DeepLabV3 (argmax inside the model)'),
  };
  return { data, assumptions };
}
