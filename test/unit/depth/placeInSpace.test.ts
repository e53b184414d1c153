import { strict as assert } from 'node:assert';
import { CameraModel } from '../../../src/depth/cameraModel';
import { ColourToDepth } from '../../../src/depth/objectDepth';
import { placeBox, placeKeypoint } from '../../../src/depth/placeInSpace';
import { renderDepth } from '../../support/syntheticDepth';

const camera = CameraModel.fromCameraInfo({
  width: 640,
  height: 480,
  distortionModel: 'plumb_bob',
  d: [0, 0, 0, 0, 0],
  k: [500, 0, 320, 0, 500, 240, 0, 0, 1],
});
const RANGE = { min: 0.2, max: 10 };

describe('depth/placeInSpace', function () {
  it('a box at 2 m: centre is the back-projected box centre, size the box at that depth', function () {
    const p = placeBox(
      camera,
      { x1: 370, y1: 140, x2: 470, y2: 440 },
      { depth: 2, near: 2, far: 2.3, samples: 10, validSamples: 10 },
    );
    const [x, y, z] = p.centre;
    assert.ok(Math.abs(x - (420 - 320) * (2 / 500)) < 1e-12);
    assert.ok(Math.abs(y - (290 - 240) * (2 / 500)) < 1e-12);
    assert.equal(z, 2);
    assert.ok(Math.abs(p.size[0] - 0.4) < 1e-12 && Math.abs(p.size[1] - 1.2) < 1e-12);
    assert.ok(Math.abs(p.size[2] - 0.3) < 1e-12);
  });

  it('keypoints on a tilted plane land on the plane; a missing one stays invalid at the origin', function () {
    // Plane z = 2 + 0.002 * (v - 240) (floor-like tilt), rendered per depth pixel.
    const img = renderDepth(640, 480, '32FC1', (_u, v) => 2 + 0.002 * (v + 0.5 - 240));
    const map = new ColourToDepth(img, 640, 480);
    for (const [u, v] of [
      [100.5, 50.5],
      [320.5, 240.5],
      [600.5, 400.5],
    ] as const) {
      const k = placeKeypoint(camera, map, { x: u, y: v, score: 0.9 }, RANGE, 0.3);
      assert.ok(k.valid);
      const want = 2 + 0.002 * (v - 240);
      assert.ok(
        Math.abs(k.position[2] - want) < 0.002 * 2.5,
        `${u},${v}: ${k.position[2]} vs ${want}`,
      );
      assert.ok(Math.abs(k.position[0] - ((u - 320) * k.position[2]) / 500) < 1e-9);
    }
    const low = placeKeypoint(camera, map, { x: 300, y: 200, score: 0.1 }, RANGE, 0.3);
    assert.deepEqual([low.valid, low.position], [false, [0, 0, 0]]);
    const hole = renderDepth(640, 480, '16UC1', () => 0);
    const none = placeKeypoint(
      camera,
      new ColourToDepth(hole, 640, 480),
      { x: 300, y: 200, score: 1 },
      RANGE,
      0.3,
    );
    assert.equal(none.valid, false);
  });
});
