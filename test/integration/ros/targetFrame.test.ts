import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { depthFile, letterboxedRgb } from '../../support/depthScene';
import { repoPath } from '../../support/paths';
import type { Detections3DMsg, DetectionsMsg, DiagnosticStatus } from '../../support/rosClient';
import { startNode, startProcess } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';
import { runToolsPython } from '../../support/toolsPython';

const CAMERA = repoPath('tools', 'ros', 'depth_camera.py');
const STATIC_TF = repoPath('test', 'fixtures', 'ros', 'static_tf.py');
const REFERENCE = repoPath('test', 'fixtures', 'transforms', 'tf_reference.py');
const W = 640;
const H = 480;
const F = 500;
const CX = 320;
const CY = 240;
const OPTICAL = 'front_camera_optical_frame';
/** base_link -> front_camera_link -> optical: 0.3 m ahead, 5 cm left, 0.5 m up, turned 10° left, tilted 5° down. */
interface Edge {
  parent: string;
  child: string;
  translation: number[];
  rotation: readonly number[];
}
const CHAIN: Edge[] = [
  {
    parent: 'base_link',
    child: 'front_camera_link',
    translation: [0.3, 0.05, 0.5],
    rotation: [-0.0038016801, 0.0434534024, 0.0870727898, 0.9952465415] as const,
  },
  {
    parent: 'front_camera_link',
    child: OPTICAL,
    translation: [0, 0, 0],
    rotation: [-0.5, 0.5, -0.5, 0.5] as const,
  },
];

const REAR_OPTICAL = 'rear_camera_optical_frame';
/** base_link -> rear_camera_link -> optical: 0.25 m behind, 0.45 m up, facing backwards. */
const REAR_CHAIN: Edge[] = [
  {
    parent: 'base_link',
    child: 'rear_camera_link',
    translation: [-0.25, 0, 0.45],
    rotation: [0, 0, 1, 0] as const,
  },
  {
    parent: 'rear_camera_link',
    child: REAR_OPTICAL,
    translation: [0, 0, 0],
    rotation: [-0.5, 0.5, -0.5, 0.5] as const,
  },
];

const sameStamp = (a: [number, number], b: [number, number]) => a[0] === b[0] && a[1] === b[1];

interface Query {
  target: string;
  source: string;
  t: number;
  point: number[];
}

/** The independent computation: scipy through the static chain (tf_reference.py). */
function referencePoints(chain: readonly Edge[], queries: Query[]): number[][] {
  const edges = chain.map((e) => ({
    parent: e.parent,
    child: e.child,
    static: true,
    samples: [{ t: 0, translation: e.translation, rotation: e.rotation }],
  }));
  const out = JSON.parse(runToolsPython([REFERENCE], JSON.stringify({ edges, queries }))) as {
    point: number[];
  }[];
  return out.map((o) => o.point);
}

/** The optical point of a 2D box centre at 2.0 m (pinhole, no distortion). */
const opticalAt2m = (box: readonly number[]) => [
  ((box[0]! - CX) * 2) / F,
  ((box[1]! - CY) * 2) / F,
  2,
];

/**
 * target_frame over real DDS: /tf_static from a Python broadcaster, a depth camera publishing a
 * person at 2.0 m, ~/detections_3d in base_link where an independent computation (pinhole
 * back-projection of the 2D box, then scipy through the published chain) puts them.
 */
describe('target_frame: 3D results in base_link from /tf_static over real DDS', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-target-frame-'));
    const colour = await letterboxedRgb(path.join(bed.photoDir, 'person.jpg'), dir, 'p.rgb', W, H);
    const depth = depthFile(dir, 'flat2m.u16', '16UC1', W, H, () => 2.0);
    const tf = bed.own(
      startProcess('python3', [
        STATIC_TF,
        ...[...CHAIN, ...REAR_CHAIN].flatMap((e) =>
          [e.parent, e.child, ...e.translation, ...e.rotation].map(String),
        ),
      ]),
    );
    await tf.waitFor(/^ready$/m, 30_000);
    for (const [name, target] of [
      ['tf_base', 'base_link'],
      ['tf_nowhere', 'map'],
    ] as const) {
      const n = bed.own(
        startNode(
          'perceptionNode',
          name,
          ['threads:=1', 'depth:=true', 'model:=yolov8s-fall', `target_frame:=${target}`],
          [
            '-r',
            'image:=/front/image_raw',
            '-r',
            'depth:=/front/depth',
            '-r',
            'camera_info:=/front/camera_info',
          ],
        ),
      );
      await n.waitFor(/nodes by provider/, 60_000);
    }
    // One node for both cameras (front/image_raw, rear/image_raw, ... relative to its namespace).
    const both = bed.own(
      startNode('perceptionNode', 'tf_cams', [
        'threads:=1',
        'depth:=true',
        'model:=yolov8s-fall',
        'target_frame:=base_link',
        'cameras:=[front, rear]',
      ]),
    );
    await both.waitFor(/nodes by provider/, 60_000);
    for (const cam of ['front', 'rear']) {
      await bed.client.watch(`/tf_cams/${cam}/detections`, 'detections');
    }
    await bed.client.watch('/tf_cams/detections_3d', 'detections_3d');
    await bed.client.watch('/tf_base/detections', 'detections');
    await bed.client.watch('/tf_base/detections_3d', 'detections_3d');
    await bed.client.watch('/tf_nowhere/detections_3d', 'detections_3d');
    const camera = bed.own(
      startProcess('python3', [
        CAMERA,
        ...['--ns', '/front', '--colour', colour, '--width', String(W), '--height', String(H)],
        ...depth,
        ...['--frame-id', OPTICAL, '--rate', '2'],
      ]),
    );
    await camera.waitFor(/^ready$/m, 60_000);
    const rear = bed.own(
      startProcess('python3', [
        CAMERA,
        ...['--ns', '/rear', '--colour', colour, '--width', String(W), '--height', String(H)],
        ...depth,
        ...['--frame-id', REAR_OPTICAL, '--rate', '2'],
      ]),
    );
    await rear.waitFor(/^ready$/m, 60_000);
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts the person 2.0 m in front of the camera where the transform chain does, within 2 cm, boxes turned with the camera', async function () {
    const three = await bed.client.take<Detections3DMsg>('/tf_base/detections_3d', 3, 60);
    const two = await bed.client.take<DetectionsMsg>('/tf_base/detections', 3, 10);
    const pairs = three.flatMap((m3) => {
      const m2 = two.find((m) => sameStamp(m.stamp, m3.stamp));
      return m2 ? [{ m2, m3 }] : [];
    });
    assert.ok(pairs.length > 0, 'no 3D message had its 2D message');
    const queries: Query[] = [];
    const got: number[][] = [];
    for (const { m2, m3 } of pairs) {
      assert.equal(m3.frame_id, 'base_link');
      assert.equal(m3.items.length, m2.items.length);
      for (const d3 of m3.items) {
        const d2 = m2.items.find((d) => d.id === d3.id)!;
        assert.equal(d3.frame_id, 'base_link');
        queries.push({ target: 'base_link', source: OPTICAL, t: 1, point: opticalAt2m(d2.box) });
        got.push(d3.center);
        // The box's axes are the camera's: its orientation the optical frame's in base_link.
        const q = d3.orientation;
        assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-9);
      }
    }
    const want = referencePoints(CHAIN, queries);
    want.forEach((w, i) => {
      const err = Math.hypot(...w.map((v, k) => v - got[i]![k]!));
      assert.ok(err <= 0.02, `${JSON.stringify(got[i])} vs ${JSON.stringify(w)}: ${err} m`);
    });
    // The person stands ahead of the robot, about 2.3 m out, a little left of its axis (the
    // camera turned 10° left).
    assert.ok(want.some((w) => w[0]! > 2 && w[0]! < 2.5));
  });

  it("with cameras:=[front, rear], ~/detections_3d carries both cameras' people in base_link: one ahead, one behind, within 2 cm", async function () {
    const merged = await bed.client.take<Detections3DMsg>('/tf_cams/detections_3d', 6, 60);
    const twoD = {
      front: await bed.client.take<DetectionsMsg>('/tf_cams/front/detections', 6, 10),
      rear: await bed.client.take<DetectionsMsg>('/tf_cams/rear/detections', 6, 10),
    };
    const queries: Query[] = [];
    const got: number[][] = [];
    const seen = new Set<string>();
    for (const m3 of merged) {
      assert.equal(m3.frame_id, 'base_link');
      for (const d3 of m3.items) {
        // A track id is its camera's: the merged topic names the camera.
        const [cam, id] = d3.id.split('/') as ['front' | 'rear', string];
        assert.ok(cam === 'front' || cam === 'rear', `id ${d3.id} names no camera`);
        const m2 = twoD[cam].find((m) => sameStamp(m.stamp, m3.stamp));
        const d2 = m2?.items.find((d) => d.id === id);
        if (!d2) continue;
        seen.add(cam);
        queries.push({
          target: 'base_link',
          source: cam === 'front' ? OPTICAL : REAR_OPTICAL,
          t: 1,
          point: opticalAt2m(d2.box),
        });
        got.push(d3.center);
      }
    }
    assert.deepEqual([...seen].sort(), ['front', 'rear'], 'both cameras in the one topic');
    const want = referencePoints([...CHAIN, ...REAR_CHAIN], queries);
    want.forEach((w, i) => {
      const err = Math.hypot(...w.map((v, k) => v - got[i]![k]!));
      assert.ok(err <= 0.02, `${JSON.stringify(got[i])} vs ${JSON.stringify(w)}: ${err} m`);
      // In front of the robot from the front camera, behind it from the rear one.
      const ahead = queries[i]!.source === OPTICAL;
      assert.ok(ahead ? w[0]! > 2 : w[0]! < -2, `${queries[i]!.source}: x = ${w[0]}`);
    });
  });

  it('a target_frame the tree cannot reach: no 3D message, a WARN naming both frames, counted', async function () {
    let d: DiagnosticStatus | undefined;
    for (let i = 0; i < 30; i++) {
      d = await bed.client.diagnostics('tf_nowhere', 5);
      if (Number(d.values?.frames_without_transform ?? 0) >= 2) break;
    }
    assert.ok(d && Number(d.values.frames_without_transform) >= 2, JSON.stringify(d?.values));
    assert.equal(d.values.target_frame, 'map');
    assert.match(
      d.message,
      new RegExp(
        `no transform from '${OPTICAL}' to 'map': frame 'map' does not exist: results go out in 2D only`,
      ),
    );
    assert.deepEqual(
      Object.keys(JSON.parse(d.values.frames_without_transform_by_reason!) as object),
      ['unknown_frame'],
    );
    assert.ok(Number(d.values.transforms_received) >= 2, 'the static chain was taken');
    const none = await bed.client.take<Detections3DMsg>('/tf_nowhere/detections_3d', 1, 2);
    assert.equal(none.length, 0);
  });
});
