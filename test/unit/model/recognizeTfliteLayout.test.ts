import { strict as assert } from 'node:assert';
import type { OnnxValueInfo } from '../../../src/model/readOnnxModel';
import {
  type ObservedRange,
  recognizeTfliteLayout,
} from '../../../src/model/recognizeTfliteLayout';

const t = (name: string, dims: (number | string)[], elemType = 'float32'): OnnxValueInfo => ({
  name,
  dims,
  elemType,
});

/** The tensors of pose_landmark_{lite,full,heavy} after tf2onnx, as the files have them. */
function blazeposeOutputs(landmarks = 39, size = 256): OnnxValueInfo[] {
  return [
    t('Identity', [1, landmarks * 5]),
    t('Identity_1', [1, 1]),
    t('Identity_2', [1, size, size, 1]),
    t('Identity_3', [1, size / 4, size / 4, landmarks]),
    t('Identity_4', [1, landmarks * 3]),
  ];
}

const POSE_INPUT = [t('input_1', [1, 256, 256, 3])];

describe('recognizeTfliteLayout', function () {
  it('finds the BlazePose landmark layout by shapes, whatever the names and order', function () {
    const outputs = blazeposeOutputs()
      .reverse()
      .map((o, i) => ({ ...o, name: `out${i}` }));
    const r = recognizeTfliteLayout(POSE_INPUT, outputs);
    assert.equal(r.kind, 'blazepose-landmarks');
    if (r.kind !== 'blazepose-landmarks') return;
    assert.equal(r.landmarkCount, 39);
    assert.deepEqual(r.landmarks.dims, [1, 195]);
    assert.deepEqual(r.personScore.dims, [1, 1]);
    assert.deepEqual(r.segmentation.dims, [1, 256, 256, 1]);
    assert.deepEqual(r.heatmaps.dims, [1, 64, 64, 39]);
    assert.deepEqual(r.worldLandmarks.dims, [1, 117]);
    assert.equal(r.input.name, 'input_1');
  });

  it('takes another square size and landmark count, but never fewer than the 33 body landmarks', function () {
    const big = recognizeTfliteLayout([t('x', [1, 192, 192, 3])], blazeposeOutputs(40, 192));
    assert.equal(big.kind, 'blazepose-landmarks');
    const few = recognizeTfliteLayout(POSE_INPUT, blazeposeOutputs(21));
    assert.equal(few.kind, 'unrecognised');
    if (few.kind === 'unrecognised') assert.match(few.reasons[0] ?? '', /L >= 33/);
  });

  it('refuses BlazePose shapes whose person score left 0..1 on the check images', function () {
    const ranges = new Map<string, ObservedRange>([['Identity_1', { min: -3, max: 7 }]]);
    const r = recognizeTfliteLayout(POSE_INPUT, blazeposeOutputs(), ranges);
    assert.equal(r.kind, 'unrecognised');
    if (r.kind === 'unrecognised')
      assert.match(r.reasons[0] ?? '', /Identity_1.*not a probability/);
    const inRange = new Map<string, ObservedRange>([['Identity_1', { min: 0, max: 0.99 }]]);
    assert.equal(
      recognizeTfliteLayout(POSE_INPUT, blazeposeOutputs(), inRange).kind,
      'blazepose-landmarks',
    );
  });

  it('needs all five BlazePose outputs, float32, and an NHWC float input', function () {
    const four = blazeposeOutputs().slice(0, 4);
    assert.equal(recognizeTfliteLayout(POSE_INPUT, four).kind, 'unrecognised');
    const int = blazeposeOutputs().map((o, i) => (i === 0 ? { ...o, elemType: 'int32' } : o));
    assert.equal(recognizeTfliteLayout(POSE_INPUT, int).kind, 'unrecognised');
    const nchw = recognizeTfliteLayout([t('input_1', [1, 3, 256, 256])], blazeposeOutputs());
    assert.equal(nchw.kind, 'unrecognised');
    const dynamic = recognizeTfliteLayout(
      [t('input_1', ['batch', 256, 256, 3])],
      blazeposeOutputs(),
    );
    assert.equal(dynamic.kind, 'unrecognised');
    const uint8 = recognizeTfliteLayout(
      [t('input_1', [1, 256, 256, 3], 'uint8')],
      blazeposeOutputs(),
    );
    assert.equal(uint8.kind, 'unrecognised');
  });

  it('finds the selfie segmentation layouts: 256x256 and landscape 144x256, one probability map', function () {
    for (const [h, w] of [
      [256, 256],
      [144, 256],
    ] as const) {
      const r = recognizeTfliteLayout(
        [t('input_1', [1, h, w, 3])],
        [t('segment_back', [1, h, w, 1])],
        new Map([['segment_back', { min: 0, max: 1 }]]),
      );
      assert.equal(r.kind, 'selfie-segmentation', `${h}x${w}`);
      if (r.kind === 'selfie-segmentation') assert.equal(r.probability.name, 'segment_back');
    }
  });

  it('refuses selfie-like shapes of another size, channel count or value range, saying why', function () {
    const other = recognizeTfliteLayout([t('in', [1, 224, 224, 3])], [t('m', [1, 224, 224, 1])]);
    assert.equal(other.kind, 'unrecognised');
    if (other.kind === 'unrecognised') {
      assert.equal(other.reasons.length, 2);
      assert.match(other.reasons[0] ?? '', /^not BlazePose landmarks: /);
      assert.match(
        other.reasons[1] ?? '',
        /^not selfie segmentation: input 224x224 is none of 256x256, 144x256/,
      );
    }
    const twoChannels = recognizeTfliteLayout(
      [t('in', [1, 256, 256, 3])],
      [t('m', [1, 256, 256, 2])],
    );
    assert.equal(twoChannels.kind, 'unrecognised');
    const logits = recognizeTfliteLayout(
      [t('in', [1, 256, 256, 3])],
      [t('m', [1, 256, 256, 1])],
      new Map([['m', { min: -12, max: 9 }]]),
    );
    assert.equal(logits.kind, 'unrecognised');
    if (logits.kind === 'unrecognised') assert.match(logits.reasons[1] ?? '', /left 0\.\.1/);
  });
});
