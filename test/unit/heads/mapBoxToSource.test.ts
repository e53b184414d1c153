import { strict as assert } from 'node:assert';
import { letterboxTransform } from '../../../src/heads/letterboxTransform';
import {
  checkImageTransform,
  mapBoxToSource,
  mapPointToSource,
} from '../../../src/heads/mapBoxToSource';
import { near, throwsHead } from './headTestUtils';

describe('heads/mapBoxToSource', () => {
  it('undoes a centred letterbox (1280x720 into 640x640: scale 0.5, padY 140)', () => {
    const t = letterboxTransform(1280, 720, 640, 640);
    assert.equal(t.scaleX, 0.5);
    assert.equal(t.padY, 140);
    assert.equal(t.padX, 0);
    const b = mapBoxToSource(t, 100, 140, 300, 500);
    assert.deepEqual(b, { x1: 200, y1: 0, x2: 600, y2: 720 });
    assert.deepEqual(mapPointToSource(t, 320, 320), { x: 640, y: 360 });
  });

  it('undoes an ROI crop and a stretch', () => {
    const t = letterboxTransform(1000, 800, 200, 100, 'stretch', {
      x: 100,
      y: 200,
      width: 400,
      height: 400,
    });
    const b = mapBoxToSource(t, 50, 25, 100, 50);
    near(b.x1, 100 + 50 * 2);
    near(b.y1, 200 + 25 * 4);
    near(b.x2, 100 + 100 * 2);
    near(b.y2, 200 + 50 * 4);
  });

  it('clamps to the image, so a box in the padding collapses to zero height', () => {
    const t = letterboxTransform(1280, 720, 640, 640);
    assert.deepEqual(mapBoxToSource(t, -50, 10, 700, 100), { x1: 0, y1: 0, x2: 1280, y2: 0 });
  });

  it('rejects transforms it cannot invert', () => {
    const t = letterboxTransform(100, 100, 64, 64);
    throwsHead(
      () => checkImageTransform({ ...t, scaleX: 0 }),
      'BAD_TRANSFORM',
      /scale must be > 0/,
    );
    throwsHead(() => checkImageTransform({ ...t, padX: NaN }), 'BAD_TRANSFORM', /non-finite/);
    throwsHead(
      () => checkImageTransform({ ...t, srcWidth: 0 }),
      'BAD_TRANSFORM',
      /sizes must be > 0/,
    );
  });
});
