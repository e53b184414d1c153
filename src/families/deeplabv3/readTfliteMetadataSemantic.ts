import { specOf } from '../exportTensor';
import type {
  ImportedManifest,
  MetadataSemanticLayout,
  TfliteMetadataImport,
} from '../modelFamily';

/**
 * The manifest of a semantic model described by its metadata. The normalization is kept in the
 * metadata's units (pixel 0..255, scale 1), so the manifest shows the file's own numbers. The whole
 * image is stretched to the input, as TensorFlow Lite's image segmenter feeds it; each pixel's
 * class is the argmax over its scores (DeepLab's head), whether they are logits or probabilities.
 */
export function readTfliteMetadataSemantic(
  l: MetadataSemanticLayout,
  x: TfliteMetadataImport,
): ImportedManifest {
  const assumptions: string[] = [];
  if (!l.rgbStated) assumptions.push("colour order RGB (the input's metadata does not state it)");
  if (!/deeplab/i.test(x.describedAs)) {
    assumptions.push(
      'family deeplabv3 names the head (per-pixel argmax over the class scores), not this network',
    );
  }
  const data = {
    ...x.base,
    task: 'semantic',
    family: 'deeplabv3',
    input: {
      name: l.input.name,
      width: l.width,
      height: l.height,
      layout: 'NHWC',
      colorOrder: 'rgb',
      dtype: 'float32',
      normalization: { scale: 1, mean: [...l.mean], std: [...l.std] },
      resize: { mode: 'stretch' },
    },
    outputs: {
      format: 'semantic-logits',
      logits: { ...specOf(l.output), layout: l.outputLayout },
    },
    classNames: [...l.labels],
    notes: [
      `Semantic segmentation as the file's TFLite metadata describes it: labels from its packed ${l.labelsFile}, input value = (pixel - mean) / std with the metadata's NormalizationOptions, the whole image stretched to the input (as TensorFlow Lite's image segmenter feeds it); each pixel's class is the argmax over the output's ${l.labels.length} class scores.`,
      x.summary,
    ]
      .filter((n) => n !== '')
      .join(' '),
  };
  return { data, assumptions };
}
