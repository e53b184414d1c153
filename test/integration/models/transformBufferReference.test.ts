import { strict as assert } from 'node:assert';
import { type Quaternion, transformPoint } from '../../../src/transforms/rigidTransform';
import { TransformBuffer } from '../../../src/transforms/transformBuffer';
import { repoPath } from '../../support/paths';
import { makePrng, randInt } from '../../support/prng';
import { runToolsPython } from '../../support/toolsPython';

const REFERENCE = repoPath('test', 'fixtures', 'transforms', 'tf_reference.py');
const MS = 1_000_000;

interface Sample {
  t: number;
  translation: [number, number, number];
  rotation: [number, number, number, number];
}
interface Edge {
  parent: string;
  child: string;
  static: boolean;
  samples: Sample[];
}
interface Query {
  target: string;
  source: string;
  t: number;
  point: [number, number, number];
}
type Answer = { point: [number, number, number] } | { error: 'extrapolation' | 'not_connected' };

/**
 * Random trees: `size` frames, each hung under an earlier one, every edge static or moving (2 to
 * 6 samples over 10 s, random rotations, half of them written as -q). Times are whole ns below
 * 2^53, exact in JSON and in JS numbers.
 */
function randomTree(rand: () => number, prefix: string, size: number): Edge[] {
  const edges: Edge[] = [];
  const unit = (): Quaternion => {
    // Four normal deviates (Box-Muller) normalised: a uniformly random rotation.
    const g = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const v = [g(), g(), g(), g()];
    const n = Math.hypot(...v);
    const sign = rand() < 0.5 ? -1 : 1;
    return {
      x: (sign * v[0]!) / n,
      y: (sign * v[1]!) / n,
      z: (sign * v[2]!) / n,
      w: (sign * v[3]!) / n,
    };
  };
  const sample = (t: number): Sample => {
    const q = unit();
    const c = () => (rand() - 0.5) * 4;
    return { t, translation: [c(), c(), c()], rotation: [q.x, q.y, q.z, q.w] };
  };
  for (let i = 1; i < size; i++) {
    const fixed = rand() < 0.4;
    const times = fixed
      ? [0]
      : Array.from(
          { length: randInt(rand, 2, 7) },
          () => randInt(rand, 0, 10_000) * MS + randInt(rand, 0, MS),
        )
          .sort((a, b) => a - b)
          .filter((t, k, all) => k === 0 || t !== all[k - 1]);
    edges.push({
      parent: `${prefix}${randInt(rand, 0, i)}`,
      child: `${prefix}${i}`,
      static: fixed,
      samples: times.map(sample),
    });
  }
  return edges;
}

/**
 * TransformBuffer against an independent implementation (scipy's Rotation and Slerp, composed as
 * 4x4 matrices, test/fixtures/transforms/tf_reference.py) on random trees of many frames with
 * moving and static edges: every lookup agrees on the point or on the failure.
 */
describe('TransformBuffer against scipy (random trees, moving transforms)', function () {
  this.timeout(60_000);

  it('maps points like the reference on 2000 lookups through chains of up to 11 frames', function () {
    const rand = makePrng(20261203);
    const edges = [...randomTree(rand, 'f', 12), ...randomTree(rand, 'g', 4)];
    const frames = [...new Set(edges.flatMap((e) => [e.parent, e.child]))];
    const queries: Query[] = Array.from({ length: 2000 }, () => {
      const c = () => (rand() - 0.5) * 10;
      return {
        target: frames[randInt(rand, 0, frames.length)]!,
        source: frames[randInt(rand, 0, frames.length)]!,
        // Mostly inside the samples' 10 s, some before and after them.
        t: randInt(rand, -500, 10_500) * MS + randInt(rand, 0, MS) + 1,
        point: [c(), c(), c()],
      };
    });
    const buffer = new TransformBuffer();
    for (const e of edges) {
      for (const s of e.samples) {
        const [x, y, z] = s.translation;
        const [qx, qy, qz, qw] = s.rotation;
        const refused = buffer.setTransform(
          {
            parent: e.parent,
            child: e.child,
            stampNs: BigInt(s.t),
            transform: { translation: { x, y, z }, rotation: { x: qx, y: qy, z: qz, w: qw } },
          },
          e.static,
        );
        assert.equal(refused, '');
      }
    }
    const answers = JSON.parse(
      runToolsPython([REFERENCE], JSON.stringify({ edges, queries })),
    ) as Answer[];
    assert.equal(answers.length, queries.length);
    const seen = { point: 0, extrapolation: 0, not_connected: 0 };
    let worst = 0;
    queries.forEach((q, i) => {
      const want = answers[i]!;
      const got = buffer.lookup(q.target, q.source, BigInt(q.t));
      const what = `${q.source} -> ${q.target} at ${q.t} ns`;
      if ('error' in want) {
        seen[want.error]++;
        assert.ok(!got.ok, `${what}: the reference says ${want.error}`);
        assert.equal(got.reason, want.error, `${what}: ${got.message}`);
        return;
      }
      seen.point++;
      assert.ok(got.ok, `${what}: ${got.ok ? '' : got.message}`);
      const [x, y, z] = q.point;
      const p = transformPoint(got.transform, { x, y, z });
      const err = Math.max(
        Math.abs(p.x - want.point[0]),
        Math.abs(p.y - want.point[1]),
        Math.abs(p.z - want.point[2]),
      );
      worst = Math.max(worst, err);
      assert.ok(err < 1e-9, `${what}: off by ${err}`);
    });
    // Every kind of answer was exercised.
    assert.ok(
      seen.point > 500 && seen.extrapolation > 100 && seen.not_connected > 100,
      JSON.stringify(seen),
    );
    this.test!.title += ` (${JSON.stringify(seen)}, worst ${worst.toExponential(1)} m)`;
  });
});
