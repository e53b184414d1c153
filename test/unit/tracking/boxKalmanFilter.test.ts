import { strict as assert } from 'node:assert';
import { BoxKalmanFilter } from '../../../src/tracking/boxKalmanFilter';

const box = (cx: number, cy: number, w: number, h: number) => ({
  x1: cx - w / 2,
  y1: cy - h / 2,
  x2: cx + w / 2,
  y2: cy + h / 2,
});

describe('tracking/boxKalmanFilter', () => {
  it('starts at the measured box with no velocity', () => {
    const f = new BoxKalmanFilter(box(100, 50, 40, 80));
    assert.deepEqual(f.box, box(100, 50, 40, 80));
    assert.deepEqual(f.velocity, { x: 0, y: 0 });
  });

  it('learns a constant velocity and predicts the next box', () => {
    const f = new BoxKalmanFilter(box(100, 200, 50, 120));
    for (let k = 1; k <= 15; k++) {
      f.predict();
      f.update(box(100 + 6 * k, 200 - 2 * k, 50, 120));
    }
    // Velocity noise is small (a velocity is believed slowly, as in ByteTrack): within 5 % after
    // 15 frames of exact measurements, and the predicted box within a pixel.
    assert.ok(Math.abs(f.velocity.x - 6) < 0.3, `vx ${f.velocity.x}`);
    assert.ok(Math.abs(f.velocity.y + 2) < 0.1, `vy ${f.velocity.y}`);
    f.predict();
    const b = f.box;
    assert.ok(Math.abs((b.x1 + b.x2) / 2 - 196) < 1);
    assert.ok(Math.abs((b.y1 + b.y2) / 2 - 168) < 1);
    assert.ok(Math.abs(b.x2 - b.x1 - 50) < 0.5);
  });

  it('coasts on its velocity without measurements and slows down when the target stops', () => {
    const f = new BoxKalmanFilter(box(0, 0, 50, 100));
    for (let k = 1; k <= 10; k++) {
      f.predict();
      f.update(box(5 * k, 0, 50, 100));
    }
    for (let k = 0; k < 5; k++) f.predict();
    assert.ok(Math.abs((f.box.x1 + f.box.x2) / 2 - 75) < 3);
    for (let k = 0; k < 20; k++) {
      f.predict();
      f.update(box(80, 0, 50, 100));
    }
    assert.ok(Math.abs(f.velocity.x) < 0.5, `vx ${f.velocity.x}`);
  });

  it('behaves the same at any box scale (noise proportional to size)', () => {
    const run = (s: number): number => {
      const f = new BoxKalmanFilter(box(0, 0, 10 * s, 20 * s));
      for (let k = 1; k <= 5; k++) {
        f.predict();
        f.update(box(s * (k + (k % 2 ? 0.5 : -0.5)), 0, 10 * s, 20 * s));
      }
      return f.velocity.x / s;
    };
    assert.ok(Math.abs(run(1) - run(37)) < 1e-9);
  });

  it('keeps a degenerate box finite', () => {
    const f = new BoxKalmanFilter({ x1: 5, y1: 5, x2: 5, y2: 5 });
    f.predict();
    f.update({ x1: 5, y1: 5, x2: 5, y2: 5 });
    const b = f.box;
    assert.ok(Number.isFinite(b.x1 + b.x2 + b.y1 + b.y2) && b.x2 > b.x1);
  });
});
