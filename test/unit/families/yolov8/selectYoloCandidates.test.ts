import { strict as assert } from 'node:assert';
import {
  resolveYoloSelectOptions,
  selectYoloCandidates,
  type YoloCandidateSource,
} from '../../../../src/families/yolov8/selectYoloCandidates';
import { makePrng } from '../../../support/prng';

/** Anchor by anchor, classes in order, scores against the threshold as a double: the definition. */
function reference(
  data: Float32Array,
  n: number,
  classes: number,
  threshold: number,
): { anchor: number; cls: number; score: number }[] {
  const out = [];
  for (let a = 0; a < n; a++) {
    let best = -Infinity;
    let cls = -1;
    for (let c = 0; c < classes; c++) {
      const v = data[(4 + c) * n + a]!;
      if (v > best) {
        best = v;
        cls = c;
      }
    }
    if (cls >= 0 && best > threshold) out.push({ anchor: a, cls, score: best });
  }
  return out;
}

function source(data: Float32Array, n: number, classes: number): YoloCandidateSource {
  return {
    kind: 'channels',
    data,
    numAnchors: n,
    channelStride: n,
    anchorStride: 1,
    numClasses: classes,
    boxScaleX: 1,
    boxScaleY: 1,
  };
}

describe('heads/selectYoloCandidates: best class per anchor', () => {
  it('keeps exactly the anchors and classes of the anchor-by-anchor definition', () => {
    const rand = makePrng(7);
    const n = 300;
    for (const [classes, threshold] of [
      [1, 0.25],
      [2, 0.3],
      [80, 0.1],
      [3, -0.2],
      [5, 0],
    ] as const) {
      const data = new Float32Array((4 + classes) * n);
      for (let a = 0; a < n; a++) {
        // Separate small boxes, so NMS keeps every candidate.
        data[a] = (a % 20) * 30 + 10;
        data[n + a] = Math.floor(a / 20) * 30 + 10;
        data[2 * n + a] = 5;
        data[3 * n + a] = 5;
      }
      for (let i = 4 * n; i < data.length; i++) {
        // Scores around the threshold, ties and NaN included.
        const r = rand();
        data[i] = r < 0.05 ? NaN : r < 0.15 ? threshold : threshold + (rand() - 0.5) * 0.2;
      }
      const want = reference(data, n, classes, threshold);
      const got = selectYoloCandidates(
        source(data, n, classes),
        resolveYoloSelectOptions({ scoreThreshold: threshold, maxDetections: n }),
      );
      const byAnchor = [...got.anchors].map((a, i) => ({
        anchor: a,
        cls: got.classIds[i]!,
        score: got.scores[i]!,
      }));
      byAnchor.sort((p, q) => p.anchor - q.anchor);
      assert.deepEqual(byAnchor, want, `${classes} classes, threshold ${threshold}`);
    }
  });

  it('compares a float32 score with the threshold as given, not rounded to float32', () => {
    // fround(0.3) is just above 0.3: kept at 0.3, not at fround(0.3) itself.
    const data = new Float32Array([10, 10, 5, 5, Math.fround(0.3)]);
    const keep = (t: number): number =>
      selectYoloCandidates(source(data, 1, 1), resolveYoloSelectOptions({ scoreThreshold: t }))
        .count;
    assert.equal(keep(0.3), 1);
    assert.equal(keep(Math.fround(0.3)), 0);
    // fround(0.7) is just below 0.7.
    data[4] = Math.fround(0.7);
    assert.equal(keep(0.7), 0);
    assert.equal(keep(Math.fround(0.7) - 1e-12), 1);
  });
});
