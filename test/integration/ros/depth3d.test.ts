import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useRosTestBed } from '../../support/rosTestBed';
import type {
  DetectionsMsg,
  DiagnosticStatus,
  Detections3DMsg,
  MarkersMsg,
  Poses3DMsg,
  PosesMsg,
} from '../../support/rosClient';
import { RunningProcess, startNode, startProcess } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';
import { depthFile, letterboxedRgb } from '../../support/depthScene';

const CAMERA = repoPath('tools', 'ros', 'depth_camera.py');
const W = 640;
const H = 480;
const F = 500;
const CX = 320;
const CY = 240;

const sameStamp = (a: [number, number], b: [number, number]) => a[0] === b[0] && a[1] === b[1];

describe('3D results from an aligned depth image and CameraInfo over real DDS', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');
  let dir: string;
  let colour: string;
  let camera: RunningProcess | undefined;
  /** The standing person's 2D box in the letterboxed photo (centre x, y, width, height), from the first scene. */
  let personBox: [number, number, number, number] | undefined;

  const startCamera = async (ns: string, depth: string[], extra: string[] = []) => {
    camera = startProcess('python3', [
      CAMERA,
      '--ns',
      ns,
      '--colour',
      colour,
      '--width',
      String(W),
      '--height',
      String(H),
      ...depth,
      ...extra,
    ]);
    await camera.waitFor(/^ready$/m, 60_000);
  };
  const stopCamera = async () => {
    await camera?.stop();
    camera = undefined;
  };

  /** Waits until the node's diagnostics say what `ready` looks for. */
  async function diagnosticsWhen(
    node: string,
    ready: (d: DiagnosticStatus) => boolean,
  ): Promise<DiagnosticStatus> {
    let d: DiagnosticStatus | undefined;
    for (let i = 0; i < 40; i++) {
      d = await bed.client.diagnostics(node, 5);
      if (d.values && ready(d)) return d;
    }
    assert.fail(`diagnostics of ${node}: ${JSON.stringify(d)}`);
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-depth3d-'));
    // The 640x424 photo of a person, letterboxed into a 640x480 rgb8 frame.
    colour = await letterboxedRgb(path.join(bed.photoDir, 'person.jpg'), dir, 'person.rgb', W, H);
    const det = bed.own(
      startNode(
        'perceptionNode',
        'd3_it',
        // The fall detector, whose boxes on this scene the placements below were checked with.
        ['threads:=2', 'depth:=true', 'model:=yolov8s-fall'],
        [
          '-r',
          'image:=/bar/image_raw',
          '-r',
          'depth:=/bar/depth',
          '-r',
          'camera_info:=/bar/camera_info',
        ],
      ),
    );
    await det.waitFor(/nodes by provider/, 60_000);
    await bed.client.watch('/d3_it/detections', 'detections');
    await bed.client.watch('/d3_it/detections_3d', 'detections_3d');
  });

  after(async () => {
    await stopCamera();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a person at a constant 2 m: z within 1 %, x and y the back-projected 2D box centre within 1 cm, sizes within 5 %', async function () {
    const depth = depthFile(dir, 'flat2m.u16', '16UC1', W, H, () => 2.0);
    await startCamera('/bar', depth);
    await bed.client.watch('/d3_it/markers', 'markers');
    const three = await bed.client.take<Detections3DMsg>('/d3_it/detections_3d', 3, 60);
    const two = await bed.client.take<DetectionsMsg>('/d3_it/detections', 1, 10);
    const markers = await bed.client.take<MarkersMsg>('/d3_it/markers', 1, 30);
    await stopCamera();
    assert.ok(three.length >= 3, `only ${three.length} 3D messages`);
    let compared = 0;
    for (const m3 of three) {
      assert.equal(m3.frame_id, 'bar_color_optical_frame', "the colour image's optical frame");
      const m2 = two.find((m) => sameStamp(m.stamp, m3.stamp));
      if (!m2) continue;
      assert.equal(m3.items.length, m2.items.length, 'every detection has depth on a flat scene');
      for (const d3 of m3.items) {
        const d2: DetectionsMsg['items'][number] | undefined = m2.items.find((d) => d.id === d3.id);
        assert.ok(d2, `3D id ${d3.id} not among the 2D ids ${m2.items.map((d) => d.id).join(',')}`);
        assert.equal(d3.class_id, d2.class_id);
        assert.ok(Math.abs(d3.score - d2.score) < 1e-9);
        const [u, v, bw, bh] = d2.box;
        const [x, y, z] = d3.center;
        assert.ok(Math.abs(z - 2) <= 0.02, `z ${z}: within 1 % of the range`);
        assert.ok(Math.abs(x - ((u - CX) * z) / F) <= 0.01, `x ${x} vs pixel ${u}`);
        assert.ok(Math.abs(y - ((v - CY) * z) / F) <= 0.01, `y ${y} vs pixel ${v}`);
        assert.ok(
          Math.abs(d3.size[0] / ((bw * 2) / F) - 1) < 0.05 &&
            Math.abs(d3.size[1] / ((bh * 2) / F) - 1) < 0.05,
        );
        assert.deepEqual(d3.orientation, [0, 0, 0, 1]);
        compared++;
      }
    }
    assert.ok(compared > 0, 'no 3D message had its 2D message in the window');
    assert.ok(
      three.some((m) => m.items.some((d) => d.class_id === '0')),
      'the standing person',
    );
    // The standing person (not the dog beside them): the narrow class-0 box.
    personBox = two.flatMap((m) => m.items).find((d) => d.class_id === '0' && d.box[2] < 160)?.box;
    // rviz / Foxglove: a DELETEALL, then a box and a label per detection, in the optical frame.
    const mk = markers[0]!.markers;
    assert.equal(mk[0]!.action, 3);
    const cubes = mk.filter((m) => m.type === 1 && m.action === 0);
    const texts = mk.filter((m) => m.type === 9);
    assert.ok(cubes.length >= 1 && texts.length === cubes.length, JSON.stringify(mk));
    for (const m of cubes) {
      assert.equal(m.frame_id, 'bar_color_optical_frame');
      assert.ok(m.lifetime > 0 && m.lifetime <= 1, 'markers expire');
      assert.ok(Math.abs(m.position[2] - 2) <= 0.04);
    }
    assert.match(texts[0]!.text, /#\d+ 2\.00 m$/);
  });

  it('a person in front of a wall that fills most of the box: the person, not the wall', async function () {
    assert.ok(personBox, 'the first scene found the standing person');
    const [cx, cy, bw, bh] = personBox;
    // A torso-wide band down the middle of the person's box at 2 m, the wall at 4 m everywhere
    // else: the wall covers 70 % of the box, so a median of the box would say 4 m.
    const band = (x: number, y: number) =>
      Math.abs(x + 0.5 - cx) < 0.15 * bw && Math.abs(y + 0.5 - cy) < bh / 2;
    const depth = depthFile(dir, 'wall.u16', '16UC1', W, H, (x, y) => (band(x, y) ? 2.0 : 4.0));
    await bed.client.clear('/d3_it/detections_3d');
    await bed.client.clear('/d3_it/detections');
    await startCamera('/bar', depth);
    const three = await bed.client.take<Detections3DMsg>('/d3_it/detections_3d', 3, 60);
    await stopCamera();
    const people = three.slice(1).flatMap((m) => m.items.filter((d) => d.class_id === '0'));
    const standing = people.filter(
      (d) => Math.abs(d.center[0] - ((cx - CX) * d.center[2]) / F) < 0.05,
    );
    assert.ok(standing.length > 0, JSON.stringify(three));
    for (const d of standing) assert.ok(Math.abs(d.center[2] - 2) <= 0.02, `z ${d.center[2]}`);
  });

  it('depth at half resolution, 32FC1 in metres with NaN holes over half the image', async function () {
    const depth = depthFile(dir, 'half3m.f32', '32FC1', W / 2, H / 2, (x, y) =>
      (x + y) % 3 === 0 ? 3.0 : NaN,
    );
    await bed.client.clear('/d3_it/detections_3d');
    await startCamera('/bar', depth);
    const three = await bed.client.take<Detections3DMsg>('/d3_it/detections_3d', 3, 60);
    await stopCamera();
    const items = three.slice(1).flatMap((m) => m.items);
    assert.ok(items.length > 0, JSON.stringify(three));
    for (const d of items) assert.ok(Math.abs(d.center[2] - 3) <= 0.03, `z ${d.center[2]}`);
  });

  it('depth stamped further from the colour frame than depth_slop_ms: no 3D, counted by reason, 2D on time', async function () {
    const depth = depthFile(dir, 'flat2m.u16', '16UC1', W, H, () => 2.0);
    await startCamera('/bar', depth, ['--depth-offset-ms', '50']);
    await bed.client.take<DetectionsMsg>('/d3_it/detections', 1, 30);
    await bed.client.clear('/d3_it/detections_3d');
    await bed.client.clear('/d3_it/detections');
    const two = await bed.client.take<DetectionsMsg>('/d3_it/detections', 3, 60);
    const three = await bed.client.take<Detections3DMsg>('/d3_it/detections_3d', 1, 2);
    const d = await diagnosticsWhen('d3_it', (s) =>
      /no_depth_in_slop/.test(s.values.frames_without_depth_by_reason ?? ''),
    );
    await stopCamera();
    assert.ok(two.length >= 3, '2D results keep coming');
    assert.equal(three.length, 0, `3D from unpaired depth: ${JSON.stringify(three)}`);
    assert.match(d.message, /within depth_slop_ms/);
  });

  it('3D keypoints on a tilted plane: every valid keypoint on the plane, the rest marked', async function () {
    // HRNet top-down on the detector's people; the scene is a plane leaning back with the rows
    // (z = 2 m at the centre row, +2 mm per row), so each keypoint's depth depends on its pixel.
    const node = bed.own(
      startNode(
        'perceptionNode',
        'd3_pose',
        [
          'threads:=1',
          'depth:=true',
          `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
          `person_detector:=${repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json')}`,
          'person_classes:=[Normal,Fall]',
        ],
        [
          '-r',
          'image:=/qux/image_raw',
          '-r',
          'depth:=/qux/depth',
          '-r',
          'camera_info:=/qux/camera_info',
        ],
      ),
    );
    await node.waitFor(/person detector .*nodes by provider/, 60_000);
    await bed.client.watch('/d3_pose/poses', 'poses');
    await bed.client.watch('/d3_pose/poses_3d', 'poses_3d');
    const plane = (v: number) => 2 + 0.002 * (v - CY);
    const depth = depthFile(dir, 'plane.f32', '32FC1', W, H, (_x, y) => plane(y + 0.5));
    await startCamera('/qux', depth);
    const three = await bed.client.take<Poses3DMsg>('/d3_pose/poses_3d', 2, 90);
    const two = await bed.client.take<PosesMsg>('/d3_pose/poses', 1, 10);
    await stopCamera();
    let valid = 0;
    let compared = 0;
    for (const m3 of three) {
      const m2 = two.find((m) => sameStamp(m.stamp, m3.stamp));
      if (!m2) continue;
      assert.equal(m3.poses.length, m2.poses.length);
      m3.poses.forEach((p3, i) => {
        assert.equal(p3.skeleton, 'coco17');
        assert.equal(p3.keypoints.length, 17);
        p3.keypoints.forEach(([x, y, z, score, ok], k) => {
          const [u, v, s2] = m2.poses[i]!.points[k]!;
          assert.ok(Math.abs(score - s2!) < 1e-6);
          if (!ok) {
            assert.deepEqual([x, y, z], [0, 0, 0], 'an invalid keypoint is not invented');
            return;
          }
          valid++;
          // The plane's depth around the keypoint (5x5 neighbourhood: within 3 rows of it).
          assert.ok(Math.abs(z - plane(v!)) <= 0.002 * 3 + 1e-6, `z ${z} at row ${v}`);
          assert.ok(
            Math.abs(x - ((u! - CX) * z) / F) <= 0.01 && Math.abs(y - ((v! - CY) * z) / F) <= 0.01,
          );
        });
      });
      compared++;
    }
    assert.ok(compared > 0, 'no 3D poses message had its 2D message in the window');
    assert.ok(valid > 0, 'no keypoint was placed');
  });

  it('no CameraInfo: a clear diagnostic, and the 2D results still go out', async function () {
    const node = bed.own(
      startNode(
        'perceptionNode',
        'd3_noinfo',
        ['threads:=1', 'depth:=true'],
        [
          '-r',
          'image:=/baz/image_raw',
          '-r',
          'depth:=/baz/depth',
          '-r',
          'camera_info:=/baz/camera_info',
        ],
      ),
    );
    await node.waitFor(/nodes by provider/, 60_000);
    await bed.client.watch('/d3_noinfo/detections', 'detections');
    const depth = depthFile(dir, 'flat2m.u16', '16UC1', W, H, () => 2.0);
    await startCamera('/baz', depth, ['--no-info']);
    const two = await bed.client.take<DetectionsMsg>('/d3_noinfo/detections', 2, 60);
    const d = await diagnosticsWhen('d3_noinfo', (s) => Number(s.values.frames_without_depth) > 0);
    await stopCamera();
    assert.ok(two.length >= 2);
    assert.equal(d.level, 1, 'WARN');
    // Silent past input_timeout_s, the WARN says for how long too.
    assert.match(
      d.message,
      /no CameraInfo on \/baz\/camera_info( for [0-9.]+ s)?: results go out in 2D only/,
    );
    assert.match(d.values.frames_without_depth_by_reason ?? '', /"no_camera_info":\d+/);
    assert.equal(d.values.frames_with_depth, '0');
  });

  it("depth as image_transport's compressedDepth (PNG 16UC1, RVL 32FC1): the person at 2 m as with raw depth", async function () {
    const node = bed.own(
      startNode(
        'perceptionNode',
        'd3_cd',
        ['threads:=1', 'depth:=true', 'model:=yolov8s-fall', 'depth_transport:=compressedDepth'],
        // One remap of the base topic serves the transport's topic, as with image_transport.
        [
          '-r',
          'image:=/cd/image_raw',
          '-r',
          'depth:=/cd/depth',
          '-r',
          'camera_info:=/cd/camera_info',
        ],
      ),
    );
    await node.waitFor(/nodes by provider/, 60_000);
    await bed.client.watch('/d3_cd/detections', 'detections');
    await bed.client.watch('/d3_cd/detections_3d', 'detections_3d');
    for (const [method, encoding] of [
      ['png', '16UC1'],
      ['rvl', '32FC1'],
    ] as const) {
      const depth = depthFile(dir, `flat2m.${method}`, encoding, W, H, () => 2.0);
      await startCamera('/cd', depth, ['--depth-transport', method]);
      await bed.client.clear('/d3_cd/detections_3d');
      const three = await bed.client.take<Detections3DMsg>('/d3_cd/detections_3d', 2, 60);
      const two = await bed.client.take<DetectionsMsg>('/d3_cd/detections', 2, 10);
      await stopCamera();
      let compared = 0;
      for (const m3 of three) {
        const m2 = two.find((m) => sameStamp(m.stamp, m3.stamp));
        if (!m2) continue;
        assert.equal(m3.items.length, m2.items.length, `${method}: every detection has depth`);
        for (const d3 of m3.items) {
          const [u] = m2.items.find((d) => d.id === d3.id)!.box;
          const [x, , z] = d3.center;
          // 32FC1 goes as quantized inverse depth: ~4 mm steps at 2 m.
          assert.ok(Math.abs(z - 2) <= 0.02, `${method}: z ${z}`);
          assert.ok(Math.abs(x - ((u - CX) * z) / F) <= 0.01, `${method}: x ${x} vs pixel ${u}`);
          compared++;
        }
      }
      assert.ok(compared > 0, `${method}: no 3D message had its 2D message`);
    }
    const d = await bed.client.diagnostics('d3_cd', 5);
    assert.equal(d.values.depth_input, '/cd/depth/compressedDepth');
    assert.equal(d.values.depth_bad_frames, '0', JSON.stringify(d.values));
    assert.ok(Number(d.values.depth_received) > 0);
  });
});
