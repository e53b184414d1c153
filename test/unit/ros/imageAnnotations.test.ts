import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { paletteColor } from '../../../src/core/palette';
import type { Detection, PersonPose } from '../../../src/core/headResults';
import { COCO_SKELETON } from '../../../src/heads/cocoKeypoints';
import {
  imageAnnotations,
  KEYPOINT_MIN_SCORE,
  paletteRgba,
  POINTS_TYPE,
} from '../../../src/ros/imageAnnotations';
import { detection2DArray, personPoseArray } from '../../../src/ros/visionMessages';
import { repoPath } from '../../support/paths';

const header = { stamp: { sec: 1700000000, nanosec: 123456789 }, frameId: 'front_camera' };
const NAMES = ['Normal', 'Fall'];
const ctx = { classNames: NAMES, skeleton: COCO_SKELETON, width: 640, height: 424 };

function det(x1: number, y1: number, x2: number, y2: number, classId: number, score: number) {
  return { box: { x1, y1, x2, y2 }, classId, score } satisfies Detection;
}

const to255 = (c: { r: number; g: number; b: number }): number[] =>
  [c.r, c.g, c.b].map((v) => Math.round(v * 255));

describe('foxglove ImageAnnotations from published results (pure)', function () {
  it('boxes are closed polygons at the published box corners, with the image stamp and frame_id', function () {
    const msg = detection2DArray(header, [det(182.5, 97.25, 289.5, 377.75, 0, 0.62)]);
    const a = imageAnnotations({ kind: 'detections', msg }, ctx);
    assert.deepEqual(a.timestamp, header.stamp);
    assert.deepEqual(a.metadata, [{ key: 'frame_id', value: 'front_camera' }]);
    assert.equal(a.circles.length, 0);
    assert.equal(a.points.length, 1);
    const box = a.points[0]!;
    assert.equal(box.type, POINTS_TYPE.LINE_LOOP);
    assert.deepEqual(box.timestamp, header.stamp);
    assert.deepEqual(box.points, [
      { x: 182.5, y: 97.25 },
      { x: 289.5, y: 97.25 },
      { x: 289.5, y: 377.75 },
      { x: 182.5, y: 377.75 },
    ]);
    assert.equal(box.fill_color.a, 0, 'boxes are outlines, the image stays visible');
    assert.ok(box.thickness >= 2);
    const meta = Object.fromEntries(box.metadata.map((m) => [m.key, m.value]));
    assert.equal(meta.id, '1');
    assert.equal(meta.class_name, 'Normal');
    assert.equal(meta.class_id, '0');
  });

  it('labels say class, score and the Detection2D id, above the box on a tag of its colour', function () {
    const msg = detection2DArray(header, [
      det(100, 200, 150, 260, 1, 0.875),
      det(10, 1, 60, 50, 0, 0.5),
    ]);
    msg.detections[0]!.id = '42'; // as a tracker would set it
    const a = imageAnnotations({ kind: 'detections', msg }, ctx);
    assert.deepEqual(
      a.texts.map((t) => t.text),
      ['Fall 0.88 #42', 'Normal 0.50 #2'],
    );
    const [high, top] = a.texts;
    assert.ok(high!.position.y < 200, 'label sits above a box with room above it');
    assert.ok(top!.position.y > 1, 'label moves inside a box touching the top edge');
    assert.ok(high!.position.x > 100 && high!.position.x < 150);
    assert.ok(high!.font_size >= 11);
    assert.deepEqual(high!.text_color, { r: 1, g: 1, b: 1, a: 1 });
    // The colours of the drawn picture: palette by class id.
    assert.deepEqual(to255(high!.background_color), [...paletteColor(1)]);
    assert.deepEqual(to255(a.points[0]!.outline_color), [...paletteColor(1)]);
    assert.deepEqual(to255(a.points[1]!.outline_color), [...paletteColor(0)]);
  });

  it('instances take the colour of their id (their mask colour), detections that of their class', function () {
    const msg = detection2DArray(header, [det(0, 0, 10, 10, 0, 0.9), det(5, 5, 20, 20, 0, 0.8)]);
    msg.detections[1]!.id = '17';
    const a = imageAnnotations({ kind: 'instances', msg }, ctx);
    assert.deepEqual(
      a.points.map((p) => to255(p.outline_color)),
      [[...paletteColor(1)], [...paletteColor(17)]],
    );
    assert.deepEqual(to255(a.texts[1]!.background_color), [...paletteColor(17)]);
    const byClass = imageAnnotations({ kind: 'detections', msg }, ctx);
    assert.deepEqual(
      byClass.points.map((p) => to255(p.outline_color)),
      [[...paletteColor(0)], [...paletteColor(0)]],
    );
  });

  it('a detection without hypotheses or id still gets a box and a plain label', function () {
    const msg = detection2DArray(header, [det(0, 0, 10, 10, 0, 0.9)]);
    msg.detections[0]!.results = [];
    msg.detections[0]!.id = '';
    const a = imageAnnotations({ kind: 'detections', msg }, ctx);
    assert.equal(a.points.length, 1);
    assert.deepEqual(
      a.texts.map((t) => t.text),
      ['unknown'],
    );
  });

  it('no detections: an empty set of annotations that still carries the stamp', function () {
    const a = imageAnnotations({ kind: 'detections', msg: detection2DArray(header, []) }, ctx);
    assert.deepEqual([a.points.length, a.texts.length, a.circles.length], [0, 0, 0]);
    assert.deepEqual(a.timestamp, header.stamp);
  });

  it('poses: visible keypoints as points, limbs with both ends visible as a line list, then the box', function () {
    // 17 keypoints on a diagonal; the left wrist (9) and the left ankle (15) are not seen.
    const hidden = new Set([9, 15]);
    const keypoints = Array.from({ length: 17 }, (_, i) => ({
      x: 200 + i,
      y: 100 + 10 * i,
      score: hidden.has(i) ? KEYPOINT_MIN_SCORE / 2 : 0.9,
    }));
    const pose: PersonPose = { ...det(190, 90, 230, 280, 0, 0.7), keypoints };
    const msg = personPoseArray(header, [pose], 'coco17');
    const a = imageAnnotations({ kind: 'poses', msg }, { ...ctx, classNames: ['person'] });
    assert.deepEqual(
      a.points.map((p) => p.type),
      [POINTS_TYPE.LINE_LIST, POINTS_TYPE.POINTS, POINTS_TYPE.LINE_LOOP],
      'skeleton under the box, as in the picture',
    );
    const [limbs, dots] = a.points;
    assert.equal(dots!.points.length, 15);
    assert.equal(dots!.outline_colors.length, 15, 'one colour per point');
    assert.ok(!dots!.points.some((p) => p.x === 209 || p.x === 215));
    assert.deepEqual(to255(dots!.outline_colors[0]!), [...paletteColor(0)]);
    const limbsSeen = COCO_SKELETON.filter(([i, j]) => !hidden.has(i) && !hidden.has(j));
    assert.equal(limbs!.points.length, 2 * limbsSeen.length);
    assert.equal(limbs!.outline_colors.length, limbsSeen.length, 'one colour per segment');
    const [i, j] = limbsSeen[0]!;
    assert.deepEqual(limbs!.points.slice(0, 2), [
      { x: keypoints[i]!.x, y: keypoints[i]!.y },
      { x: keypoints[j]!.x, y: keypoints[j]!.y },
    ]);
    assert.deepEqual(
      a.texts.map((t) => t.text),
      ['person 0.70 #1'],
    );
  });

  it('uses the constants and colour range of the restated foxglove_msgs definitions', function () {
    const text = fs.readFileSync(
      repoPath('interfaces', 'foxglove_msgs', 'msg', 'PointsAnnotation.msg'),
      'utf8',
    );
    const constants = Object.fromEntries(
      [...text.matchAll(/^uint8 ([A-Z_]+)=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]),
    );
    for (const [name, value] of Object.entries(POINTS_TYPE)) assert.equal(constants[name], value);
    for (let k = 0; k < 25; k++) {
      const c = paletteRgba(k);
      for (const v of [c.r, c.g, c.b, c.a]) assert.ok(v >= 0 && v <= 1);
    }
  });
});
