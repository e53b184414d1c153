import { strict as assert } from 'node:assert';
import type { OnnxValueInfo } from '../../../src/model/readOnnxModel';
import { parseTfliteModel } from '../../../src/model/readTfliteModel';
import { recognizeTfliteMetadata } from '../../../src/model/recognizeTfliteMetadata';
import {
  associated,
  type MetadataParts,
  metadataBytes,
  type ModelParts,
  syntheticTflite,
  VOC_LABELS,
} from '../../support/tfliteFiles';

const t = (name: string, dims: number[], elemType = 'float32'): OnnxValueInfo => ({
  name,
  dims,
  elemType,
});

const IN = [t('sub_7', [1, 257, 257, 3])];
const OUT = [t('ResizeBilinear_3', [1, 257, 257, 21])];

function recognize(
  meta: MetadataParts | null,
  model: ModelParts = {},
  inputs = IN,
  outputs = OUT,
): ReturnType<typeof recognizeTfliteMetadata> {
  const tflite = parseTfliteModel(
    syntheticTflite({ ...model, metadata: meta === null ? null : metadataBytes(meta) }),
  );
  return recognizeTfliteMetadata(tflite, inputs, outputs);
}

describe('recognizeTfliteMetadata', function () {
  it("a segmenter's metadata: labels, per-channel normalization, size and the class axis", function () {
    const r = recognize({});
    assert.ok(typeof r !== 'string', String(r));
    assert.equal(r.kind, 'metadata-semantic');
    assert.equal(r.input.name, 'sub_7');
    assert.deepEqual([r.width, r.height], [257, 257]);
    assert.deepEqual(r.mean, [127.5, 127.5, 127.5]);
    assert.deepEqual(r.std, [127.5, 127.5, 127.5]);
    assert.equal(r.rgbStated, true);
    assert.equal(r.output.name, 'ResizeBilinear_3');
    assert.equal(r.outputLayout, 'NHWC');
    assert.deepEqual(r.labels, VOC_LABELS);
    assert.equal(r.labelsFile, 'labelmap.txt');
  });

  it('three-value normalization, an unstated colour space, a smaller class-first output', function () {
    const r = recognize(
      { mean: [123.7, 116.3, 103.5], std: [58.4, 57.1, 57.4], colorSpace: 0 },
      { outputShape: [1, 21, 65, 65] },
      IN,
      [t('logits', [1, 21, 65, 65])],
    );
    assert.ok(typeof r !== 'string', String(r));
    assert.deepEqual(
      r.mean.map((v) => Number(v.toFixed(1))),
      [123.7, 116.3, 103.5],
    );
    assert.equal(r.rgbStated, false);
    assert.equal(r.outputLayout, 'NCHW');
  });

  const refusals: [string, () => ReturnType<typeof recognizeTfliteMetadata>, RegExp][] = [
    ['no metadata', () => recognize(null), /^the file has no TFLite metadata$/],
    [
      'no normalization',
      () => recognize({ mean: null }),
      /the input's metadata has no NormalizationOptions/,
    ],
    ['not an image', () => recognize({ colorSpace: null }), /describes no content, not an image/],
    ['grayscale', () => recognize({ colorSpace: 2 }), /colour space grayscale, not RGB/],
    [
      'two means',
      () => recognize({ mean: [1, 2] }),
      /NormalizationOptions mean has 2 values, not 1 or 3/,
    ],
    ['a zero std', () => recognize({ std: [0] }), /NormalizationOptions std \[0\] is not positive/],
    [
      'a labels count that is no axis',
      () => recognize({}, { outputShape: [1, 257, 257, 20] }, IN, [t('o', [1, 257, 257, 20])]),
      /output 'o' \[1,257,257,20\] has no class axis of 21 \(the labels in labelmap\.txt\)/,
    ],
    [
      'a classifier',
      () => recognize({}, { outputShape: [1, 1, 1, 21] }, IN, [t('o', [1, 1, 1, 21])]),
      /scores the whole image \(a classifier\)/,
    ],
    [
      'a rank-2 output',
      () => recognize({}, { outputShape: [1, 21] }, IN, [t('o', [1, 21])]),
      /output 'o' is float32 \[1,21\], not float32 \[1,H,W,21\] class scores/,
    ],
    [
      'no labels file named',
      () => recognize({ outputFiles: [associated('readme.txt', 1)] }),
      /names no labels file \(associated file of type TENSOR_AXIS_LABELS\)/,
    ],
    [
      'the labels file not packed',
      () => recognize({}, { files: [] }),
      /labels file "labelmap\.txt", which is not packed in the model/,
    ],
    [
      'a blank label',
      () => recognize({}, { files: [{ name: 'labelmap.txt', data: Buffer.from('a\n\nb\n') }] }),
      /labelmap\.txt: line 2 is blank/,
    ],
    [
      'a uint8 input',
      () =>
        recognize({}, { inputShape: [1, 257, 257, 3] }, [t('sub_7', [1, 257, 257, 3], 'uint8')]),
      /input 'sub_7' is uint8: only float inputs are imported from metadata/,
    ],
    [
      'an NCHW input',
      () => recognize({}, {}, [t('x', [1, 3, 257, 257])]),
      /input 'x' \[1,3,257,257\] is not a fixed \[1,H,W,3\] image/,
    ],
    [
      'ONNX tensors that differ from the TFLite file',
      () => recognize({}, {}, [t('sub_7', [1, 513, 513, 3])]),
      /input 'sub_7' is \[1,513,513,3\] in ONNX but \[1,257,257,3\] in the TFLite file/,
    ],
    ['two outputs', () => recognize({}, {}, IN, [...OUT, ...OUT]), /2 outputs, not one/],
  ];
  for (const [what, run, pattern] of refusals) {
    it(`says why not: ${what}`, function () {
      const r = run();
      assert.equal(typeof r, 'string', JSON.stringify(r));
      assert.match(r as string, pattern);
    });
  }
});
