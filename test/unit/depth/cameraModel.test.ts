import { strict as assert } from 'node:assert';
import { CameraModel, CameraModelError } from '../../../src/depth/cameraModel';

const PINHOLE = {
  width: 640,
  height: 480,
  distortionModel: 'plumb_bob',
  d: [0, 0, 0, 0, 0],
  k: [500, 0, 320, 0, 500, 240, 0, 0, 1],
};

/** Brown-Conrady forward model (what a lens does), to check the inverse against. */
function distortRadtan(x: number, y: number, [k1, k2, p1, p2, k3]: number[]): [number, number] {
  const r2 = x * x + y * y;
  const radial = 1 + r2 * (k1! + r2 * (k2! + r2 * k3!));
  return [
    x * radial + 2 * p1! * x * y + p2! * (r2 + 2 * x * x),
    y * radial + p1! * (r2 + 2 * y * y) + 2 * p2! * x * y,
  ];
}

function distortEquidistant(x: number, y: number, [k1, k2, k3, k4]: number[]): [number, number] {
  const r = Math.hypot(x, y);
  const t = Math.atan(r);
  const t2 = t * t;
  const td = t * (1 + t2 * (k1! + t2 * (k2! + t2 * (k3! + t2 * k4!))));
  return [(x * td) / r, (y * td) / r];
}

describe('depth/cameraModel', function () {
  it('back-projects through a pinhole: the principal point on the axis, offsets by z / f', function () {
    const c = CameraModel.fromCameraInfo(PINHOLE);
    assert.deepEqual(c.backProject(320, 240, 2), [0, 0, 2]);
    const [x, y, z] = c.backProject(420, 190, 2);
    assert.ok(Math.abs(x - 0.4) < 1e-12 && Math.abs(y + 0.2) < 1e-12 && z === 2);
  });

  it('the same camera at half resolution sees the same ray at the same pixel centre', function () {
    const full = CameraModel.fromCameraInfo(PINHOLE);
    const half = full.scaledTo(320, 240);
    assert.equal(half.fx, 250);
    // Pixel centre (2i + 1) / 2 at full resolution is centre i + 0.5 at half: ((u + 0.5) / 2) - 0.5.
    for (const [u, v] of [
      [0.5, 0.5],
      [320, 240],
      [639.5, 100.5],
    ] as const) {
      const a = full.pixelToRay(u, v);
      const b = half.pixelToRay((u + 0.5) / 2 - 0.5, (v + 0.5) / 2 - 0.5);
      assert.ok(Math.abs(a[0] - b[0]) < 1e-12 && Math.abs(a[1] - b[1]) < 1e-12);
    }
  });

  it('undoes plumb_bob distortion of a real lens across the image (1e-9 in the ray)', function () {
    const coeffs = [-0.28, 0.07, 0.0012, -0.0008, -0.008];
    const c = CameraModel.fromCameraInfo({ ...PINHOLE, d: coeffs });
    for (const [x, y] of [
      [0, 0],
      [0.3, -0.2],
      [-0.6, 0.45],
      [0.62, 0.46],
    ] as const) {
      const [xd, yd] = distortRadtan(x, y, coeffs);
      const [rx, ry] = c.pixelToRay(320 + 500 * xd, 240 + 500 * yd);
      assert.ok(Math.abs(rx - x) < 1e-9 && Math.abs(ry - y) < 1e-9, `${x},${y} -> ${rx},${ry}`);
    }
  });

  it('undoes equidistant (fisheye) distortion', function () {
    const coeffs = [0.05, -0.01, 0.002, -0.0003];
    const c = CameraModel.fromCameraInfo({ ...PINHOLE, distortionModel: 'equidistant', d: coeffs });
    for (const [x, y] of [
      [0.4, 0.1],
      [-0.9, 0.7],
    ] as const) {
      const [xd, yd] = distortEquidistant(x, y, coeffs);
      const [rx, ry] = c.pixelToRay(320 + 500 * xd, 240 + 500 * yd);
      assert.ok(Math.abs(rx - x) < 1e-9 && Math.abs(ry - y) < 1e-9, `${x},${y} -> ${rx},${ry}`);
    }
  });

  it('refuses an uncalibrated camera, a short K and an unknown model with coefficients', function () {
    const bad = (patch: object, re: RegExp) =>
      assert.throws(
        () => CameraModel.fromCameraInfo({ ...PINHOLE, ...patch }),
        (e: unknown) => e instanceof CameraModelError && re.test(e.message),
      );
    bad({ k: [0, 0, 0, 0, 0, 0, 0, 0, 0] }, /not calibrated/);
    bad({ k: [500, 0, 320] }, /9 finite numbers/);
    bad({ distortionModel: 'kannala', d: [0.1] }, /"kannala" .* not supported/);
    // An unknown model with all-zero coefficients is a pinhole.
    CameraModel.fromCameraInfo({ ...PINHOLE, distortionModel: '', d: [] });
  });

  it('refuses finite numbers that give no finite ray (denormal focal lengths)', function () {
    const bad = (k: number[]) =>
      assert.throws(
        () => CameraModel.fromCameraInfo({ ...PINHOLE, k }),
        (e: unknown) => e instanceof CameraModelError && /no finite ray/.test(e.message),
      );
    bad([5e-324, 0, 320, 0, 500, 240, 0, 0, 1]);
    bad([500, 0, 320, 0, 1e-310, 240, 0, 0, 1]);
  });
});
