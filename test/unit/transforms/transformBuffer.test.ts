import { strict as assert } from 'node:assert';
import {
  type Quaternion,
  type RigidTransform,
  transformPoint,
  type Vec3,
} from '../../../src/transforms/rigidTransform';
import { type Lookup, TransformBuffer } from '../../../src/transforms/transformBuffer';

const S = 1_000_000_000n;
/** The camera optical frame in its camera_link (z forward, x right, y down: REP 103). */
const OPTICAL: Quaternion = { x: -0.5, y: 0.5, z: -0.5, w: 0.5 };
const NO_TURN: Quaternion = { x: 0, y: 0, z: 0, w: 1 };

function yaw(rad: number): Quaternion {
  return { x: 0, y: 0, z: Math.sin(rad / 2), w: Math.cos(rad / 2) };
}

function tf(x: number, y: number, z: number, rotation: Quaternion = NO_TURN): RigidTransform {
  return { translation: { x, y, z }, rotation };
}

function near(p: Vec3, q: Vec3, tol = 1e-9): void {
  assert.ok(
    Math.abs(p.x - q.x) < tol && Math.abs(p.y - q.y) < tol && Math.abs(p.z - q.z) < tol,
    `${JSON.stringify(p)} != ${JSON.stringify(q)}`,
  );
}

function found(l: Lookup): RigidTransform {
  assert.ok(l.ok, l.ok ? '' : l.message);
  return l.transform;
}

function failed(l: Lookup): { reason: string; message: string } {
  assert.ok(!l.ok, 'the lookup should have failed');
  return l;
}

/** A robot: odom -> base_link moving on /tf, base_link -> camera_link -> optical static. */
function robot(): TransformBuffer {
  const b = new TransformBuffer();
  const set = (parent: string, child: string, t: RigidTransform, stampNs = 0n, fixed = true) =>
    assert.equal(b.setTransform({ parent, child, stampNs, transform: t }, fixed), '');
  set('base_link', 'front_camera_link', tf(0.3, 0, 0.5));
  set('front_camera_link', 'front_camera_optical_frame', tf(0, 0, 0, OPTICAL));
  set('base_link', 'rear_camera_link', tf(-0.3, 0, 0.5, yaw(Math.PI)));
  set('rear_camera_link', 'rear_camera_optical_frame', tf(0, 0, 0, OPTICAL));
  set('odom', 'base_link', tf(0, 0, 0), 1n * S, false);
  set('odom', 'base_link', tf(1, 0, 0, yaw(Math.PI / 2)), 2n * S, false);
  return b;
}

describe('TransformBuffer (tf2 semantics)', () => {
  it('puts a point 2 m in front of each camera where the robot has it, through static chains', () => {
    const b = robot();
    const front = found(b.lookup('base_link', '/front_camera_optical_frame', 5n * S));
    near(transformPoint(front, { x: 0, y: 0, z: 2 }), { x: 2.3, y: 0, z: 0.5 });
    // Right of the image (optical +x) is the robot's right (-y).
    near(transformPoint(front, { x: 1, y: 0, z: 2 }), { x: 2.3, y: -1, z: 0.5 });
    const rear = found(b.lookup('base_link', 'rear_camera_optical_frame', 5n * S));
    near(transformPoint(rear, { x: 0, y: 0, z: 2 }), { x: -2.3, y: 0, z: 0.5 });
    near(transformPoint(rear, { x: 1, y: 0, z: 2 }), { x: -2.3, y: 1, z: 0.5 });
    // And back: the inverse lookup undoes it.
    const back = found(b.lookup('front_camera_optical_frame', 'base_link', 0n));
    near(transformPoint(back, { x: 2.3, y: -1, z: 0.5 }), { x: 1, y: 0, z: 2 });
  });

  it('interpolates a moving transform between its samples: translation linearly, rotation by slerp', () => {
    const b = robot();
    const mid = found(b.lookup('odom', 'base_link', 1_500_000_000n));
    near(mid.translation, { x: 0.5, y: 0, z: 0 });
    near(transformPoint(mid, { x: 1, y: 0, z: 0 }), {
      x: 0.5 + Math.cos(Math.PI / 4),
      y: Math.sin(Math.PI / 4),
      z: 0,
    });
    // A quarter of the way, a quarter of the angle (a normalised linear blend would turn 21.6°).
    const quarter = found(b.lookup('odom', 'base_link', 1_250_000_000n));
    near(transformPoint(quarter, { x: 1, y: 0, z: 0 }), {
      x: 0.25 + Math.cos(Math.PI / 8),
      y: Math.sin(Math.PI / 8),
      z: 0,
    });
    // Across the moving edge and the static ones at once.
    const cam = found(b.lookup('odom', 'front_camera_optical_frame', 2n * S));
    near(transformPoint(cam, { x: 0, y: 0, z: 2 }), { x: 1, y: 2.3, z: 0.5 });
  });

  it('takes the shorter arc between q and -q (one rotation)', () => {
    const b = new TransformBuffer();
    const q = yaw(0.2);
    b.setTransform({ parent: 'a', child: 'b', stampNs: 0n, transform: tf(0, 0, 0, q) }, false);
    const neg = { x: -q.x, y: -q.y, z: -q.z, w: -q.w };
    b.setTransform({ parent: 'a', child: 'b', stampNs: 2n, transform: tf(0, 0, 0, neg) }, false);
    const r = found(b.lookup('a', 'b', 1n));
    near(transformPoint(r, { x: 1, y: 0, z: 0 }), { x: Math.cos(0.2), y: Math.sin(0.2), z: 0 });
  });

  it('never extrapolates: before the oldest or after the newest sample fails, saying by how much', () => {
    const b = robot();
    const future = failed(b.lookup('odom', 'front_camera_optical_frame', 2_050_000_000n));
    assert.equal(future.reason, 'extrapolation');
    assert.match(future.message, /'odom' -> 'base_link' .* into the future by 50 ms/);
    const past = failed(b.lookup('base_link', 'odom', S / 2n));
    assert.equal(past.reason, 'extrapolation');
    assert.match(past.message, /into the past by 500 ms/);
  });

  it('an edge that fails above the frames asked for does not matter', () => {
    const b = robot();
    // odom -> base_link has no data at 10 s; the cameras meet below it, at base_link.
    const r = found(b.lookup('rear_camera_optical_frame', 'front_camera_optical_frame', 10n * S));
    near(transformPoint(r, { x: 0, y: 0, z: 1 }), { x: 0, y: 0, z: -1.6 });
  });

  it('time 0 is the latest time every moving edge of the chain has data for', () => {
    const b = robot();
    b.setTransform(
      { parent: 'map', child: 'odom', stampNs: 1_200_000_000n, transform: tf(5, 0, 0) },
      false,
    );
    b.setTransform(
      { parent: 'map', child: 'odom', stampNs: 1_800_000_000n, transform: tf(5, 0, 0) },
      false,
    );
    const r = b.lookup('map', 'front_camera_link', 0n);
    assert.ok(r.ok);
    assert.equal(r.stampNs, 1_800_000_000n);
    // Static throughout: time 0 stays 0.
    const s = b.lookup('base_link', 'front_camera_optical_frame', 0n);
    assert.ok(s.ok);
    assert.equal(s.stampNs, 0n);
  });

  it('names an unknown frame and frames of two trees', () => {
    const b = robot();
    const unknown = failed(b.lookup('base_link', 'left_camera_optical_frame', 0n));
    assert.equal(unknown.reason, 'unknown_frame');
    assert.match(unknown.message, /'left_camera_optical_frame' does not exist/);
    b.setTransform({ parent: 'world', child: 'table', stampNs: 0n, transform: tf(1, 0, 0) }, true);
    const apart = failed(b.lookup('table', 'base_link', 2n * S));
    assert.equal(apart.reason, 'not_connected');
    assert.match(apart.message, /roots: 'world' and 'odom'/);
  });

  it('refuses what names no transform, and finds a loop instead of walking forever', () => {
    const b = new TransformBuffer();
    const bad = (parent: string, child: string, t: RigidTransform) =>
      b.setTransform({ parent, child, stampNs: 0n, transform: t }, true);
    assert.match(bad('a', 'a', tf(0, 0, 0)), /to itself/);
    assert.match(bad('', 'a', tf(0, 0, 0)), /empty frame id/);
    assert.match(bad('a', 'b', tf(NaN, 0, 0)), /non-finite/);
    assert.match(bad('a', 'b', tf(0, 0, 0, { x: 0, y: 0, z: 0, w: 0 })), /length 0/);
    assert.equal(b.knows('b'), false, 'nothing refused was kept');
    // A rotation that is not unit length is normalised (tf2 does the same).
    assert.equal(bad('a', 'b', tf(0, 0, 0, { x: 0, y: 0, z: 0, w: 2 })), '');
    near(transformPoint(found(b.lookup('a', 'b', 0n)), { x: 1, y: 2, z: 3 }), { x: 1, y: 2, z: 3 });
    // c's parent b, b's parent a, a's parent c: a loop, found and named.
    assert.equal(bad('b', 'c', tf(1, 0, 0)), '');
    assert.equal(bad('c', 'a', tf(1, 0, 0)), '');
    assert.equal(bad('z', 'q', tf(0, 0, 0)), '');
    const loop = failed(b.lookup('z', 'c', 0n));
    assert.equal(loop.reason, 'loop');
    assert.match(loop.message, /the frames above 'c' form a loop at 'c'/);
  });

  it('a static transform holds at every time; /tf for a static frame is refused', () => {
    const b = robot();
    assert.ok(b.lookup('base_link', 'front_camera_link', 123n).ok);
    const refused = b.setTransform(
      { parent: 'base_link', child: 'front_camera_link', stampNs: S, transform: tf(9, 9, 9) },
      false,
    );
    assert.match(refused, /is static/);
    near(found(b.lookup('base_link', 'front_camera_link', S)).translation, {
      x: 0.3,
      y: 0,
      z: 0.5,
    });
  });

  it('keeps the earlier parent between samples of two parents, and the cache time of each edge', () => {
    const b = new TransformBuffer(5n * S);
    b.setTransform({ parent: 'p1', child: 'c', stampNs: 1n * S, transform: tf(1, 0, 0) }, false);
    b.setTransform({ parent: 'p2', child: 'c', stampNs: 3n * S, transform: tf(3, 0, 0) }, false);
    b.setTransform({ parent: 'w', child: 'p1', stampNs: 0n, transform: tf(0, 0, 0) }, true);
    b.setTransform({ parent: 'w', child: 'p2', stampNs: 0n, transform: tf(10, 0, 0) }, true);
    near(found(b.lookup('w', 'c', 2n * S)).translation, { x: 1, y: 0, z: 0 });
    near(found(b.lookup('w', 'c', 3n * S)).translation, { x: 13, y: 0, z: 0 });
    // Samples older than the newest minus the cache time are dropped, and refused when late.
    b.setTransform({ parent: 'p2', child: 'c', stampNs: 7n * S, transform: tf(7, 0, 0) }, false);
    assert.equal(failed(b.lookup('w', 'c', 1n * S)).reason, 'extrapolation');
    assert.match(
      b.setTransform({ parent: 'p2', child: 'c', stampNs: 1n * S, transform: tf(0, 0, 0) }, false),
      /older than the cache/,
    );
    // A late sample inside the window goes in its place.
    b.setTransform({ parent: 'p2', child: 'c', stampNs: 5n * S, transform: tf(5, 0, 0) }, false);
    near(found(b.lookup('w', 'c', 4n * S)).translation, { x: 14, y: 0, z: 0 });
  });
});
