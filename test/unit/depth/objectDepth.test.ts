import { strict as assert } from 'node:assert';
import {
  ColourToDepth,
  detectionSamples,
  objectDepth,
  pointDepth,
} from '../../../src/depth/objectDepth';
import { renderDepth } from '../../support/syntheticDepth';

const RANGE = { min: 0.2, max: 10 };
const box = { x1: 200, y1: 100, x2: 440, y2: 460 };

/** A person-shaped silhouette at 2 m in front of a wall at 3.5 m (640x480 colour pixels). */
function personInFrontOfWall(x: number, y: number): number {
  const torso = x >= 270 && x < 370 && y >= 140 && y < 460;
  const head = (x - 320) ** 2 + (y - 120) ** 2 < 30 ** 2;
  const arms = y >= 170 && y < 200 && x >= 200 && x < 440;
  return torso || head || arms ? 2.0 : 3.5;
}

describe('depth/objectDepth', function () {
  it('a box full of one plane: its depth, no spread', function () {
    const img = renderDepth(640, 480, '16UC1', () => 2.0);
    const d = objectDepth(
      detectionSamples(new ColourToDepth(img, 640, 480), box, undefined, RANGE),
    )!;
    assert.equal(d.depth, 2);
    assert.equal(d.far - d.near, 0);
  });

  it('a person in front of a wall that fills most of the box: the person', function () {
    const img = renderDepth(640, 480, '16UC1', personInFrontOfWall);
    const map = new ColourToDepth(img, 640, 480);
    // The wall is the majority of the whole box: a plain median would be 3.5 m.
    const all: number[] = [];
    for (let y = box.y1; y < box.y2; y += 4)
      for (let x = box.x1; x < box.x2; x += 4) all.push(personInFrontOfWall(x, y));
    assert.ok(all.filter((v) => v === 3.5).length > all.length / 2);
    const d = objectDepth(detectionSamples(map, box, undefined, RANGE))!;
    assert.equal(d.depth, 2);
  });

  it('holes and zeros over half the box: the depth of what is left', function () {
    const img = renderDepth(640, 480, '32FC1', (x, y) =>
      (x + y) % 3 === 0 ? 1.25 : (x * 7 + y) % 2 === 0 ? NaN : 0,
    );
    const d = objectDepth(
      detectionSamples(new ColourToDepth(img, 640, 480), box, undefined, RANGE),
    )!;
    assert.ok(Math.abs(d.depth - 1.25) < 1e-6);
    assert.ok(d.validSamples > 0);
  });

  it('no valid depth at all (or all outside the range): undefined', function () {
    const empty = renderDepth(64, 48, '16UC1', () => 0);
    assert.equal(
      objectDepth(detectionSamples(new ColourToDepth(empty, 640, 480), box, undefined, RANGE)),
      undefined,
    );
    const far = renderDepth(64, 48, '16UC1', () => 12);
    assert.equal(
      objectDepth(detectionSamples(new ColourToDepth(far, 640, 480), box, undefined, RANGE)),
      undefined,
    );
  });

  it('depth at half resolution reads the same surfaces', function () {
    const img = renderDepth(320, 240, '16UC1', (x, y) => personInFrontOfWall(2 * x + 1, 2 * y + 1));
    const d = objectDepth(
      detectionSamples(new ColourToDepth(img, 640, 480), box, undefined, RANGE),
    )!;
    assert.equal(d.depth, 2);
  });

  it('with a mask, only its pixels count', function () {
    // A small object at 1 m in the corner of its box; the box middle is wall (3 m).
    const img = renderDepth(640, 480, '16UC1', (x, y) => (x < 260 && y < 160 ? 1 : 3));
    const mask = { x: 200, y: 100, width: 60, height: 60, data: new Uint8Array(3600).fill(1) };
    const d = objectDepth(detectionSamples(new ColourToDepth(img, 640, 480), box, mask, RANGE))!;
    assert.equal(d.depth, 1);
  });

  it('spread: a tilted surface reports its 10th-90th percentile extent', function () {
    const d = objectDepth(Array.from({ length: 101 }, (_, i) => 2 + i * 0.001))!;
    assert.ok(Math.abs(d.depth - 2.05) < 1e-9);
    assert.ok(Math.abs(d.far - d.near - 0.08) < 0.002);
  });

  it('a point on a body: the nearest surface with enough share, not the background', function () {
    const samples = [...Array(10).fill(2.0), ...Array(15).fill(3.5)];
    assert.equal(pointDepth(samples, 0.3)!.depth, 2);
    assert.equal(objectDepth(samples)!.depth, 3.5, 'the majority is the wall');
    assert.equal(pointDepth([2.0, ...Array(24).fill(3.5)], 0.3)!.depth, 3.5, 'one stray sample');
  });
});
