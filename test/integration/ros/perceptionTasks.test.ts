import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import {
  jsonSummary,
  RunningProcess,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { repoPath } from '../../support/paths';
import { photoDirWith } from '../../support/photos';
import { runToolsPython } from '../../support/toolsPython';
import { reference } from '../engine/engineFixtures';

const LISTENER = repoPath('test', 'fixtures', 'ros', 'perception_listener.py');
const PERSON_JPG = { width: 640, height: 424 };

interface ImageSummary {
  encoding: string;
  width: number;
  height: number;
  step: number;
  frame_id: string;
  bytes: number;
  max: number;
  distinct: number;
}
interface Summary {
  poses?: {
    frame_id: string;
    poses: { skeleton: string; keypoints: number; box: number[]; points: number[][] }[];
  };
  instances?: ImageSummary;
  segmentation?: ImageSummary;
  detections?: {
    frame_id: string;
    count: number;
    items: { id: string; class_id: string | null; score: number | null; box: Rect }[];
  };
}
type Rect = [number, number, number, number];
/** instances.json of tools/engine/make_instance_probe.py; rectangles [x0, y0, x1, y1] in input px. */
interface Probe {
  inputSize: number;
  instances: { score: number; classId: number; mask: Rect; box: Rect }[];
}
interface DeeplabManifest {
  files: { fp32: string };
  input: {
    width: number;
    height: number;
    normalization: { scale: number; mean: number[]; std: number[] };
  };
  outputs: { logits: { name: string } };
}

/** How many pixels differ, and where the first one is ("(x, y): got g, expected e"). */
function mismatches(
  got: ArrayLike<number>,
  expected: ArrayLike<number>,
  width: number,
): { count: number; first: string } {
  let count = 0;
  let first = 'none';
  for (let i = 0; i < expected.length; i++) {
    if (got[i] === expected[i]) continue;
    if (count++ === 0)
      first = `(${i % width}, ${Math.floor(i / width)}): got ${got[i]}, expected ${expected[i]}`;
  }
  return { count, first };
}

/**
 * Each task's messages over real DDS, with the image header and in source-image geometry. The
 * untrained models find nothing real, so the pixel outputs are checked against independent
 * references: a probe model with known instances for the mono16 ids, and an argmax of the same
 * logits computed in Python for the DeepLab class map.
 */
describe('perception node per task over real DDS', function () {
  this.timeout(120_000);
  const procs: RunningProcess[] = [];
  let photoDir: string;
  let tmp: string;
  before(() => {
    photoDir = photoDirWith('person.jpg');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-perception-'));
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });
  after(() => {
    fs.rmSync(photoDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function run(
    nodeName: string,
    params: string[],
    outputs: string[],
    photos: string = photoDir,
  ): Promise<Summary> {
    const perception = startNode('perceptionNode', nodeName, ['threads:=2', ...params]);
    procs.push(perception);
    await perception.waitFor(/nodes by provider/, 60_000);
    const listener = startProcess('python3', [LISTENER, nodeName, '60', '--save', tmp, ...outputs]);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startPhotoSource(`src_${nodeName}`, photos, 2, 'cam');
    procs.push(source);
    await listener.exited();
    return jsonSummary<Summary>(listener);
  }

  it('HRNet top-down: one 17-keypoint pose per person the person_detector finds', async function () {
    const s = await run(
      'pose_it',
      [
        `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
        `person_detector:=${repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json')}`,
        // The fall detector's classes are both people (standing and fallen).
        'person_classes:=[Normal,Fall]',
      ],
      ['poses'],
    );
    assert.equal(s.poses?.frame_id, 'cam');
    // yolov8s-fall finds two people-like boxes in person.jpg (see the reference test).
    assert.equal(s.poses?.poses.length, 2);
    for (const p of s.poses!.poses) {
      assert.equal(p.skeleton, 'coco17');
      assert.equal(p.keypoints, 17);
      for (const [x, y] of p.points)
        assert.ok(x! >= 0 && x! <= PERSON_JPG.width && y! >= 0 && y! <= PERSON_JPG.height);
    }
  });

  it('YOLOv8 seg: each Detection2D.id marks exactly its instance in the mono16 image', async function () {
    // The untrained yolov8n-seg finds nothing, so a probe model in the same Ultralytics layout
    // places three known instances (tools/engine/make_instance_probe.py explains why its masks are
    // exact on any CPU). person.jpg (640x424) letterboxes at scale 1 with 108 rows of padding.
    runToolsPython([repoPath('tools', 'engine', 'make_instance_probe.py'), tmp]);
    const probe = JSON.parse(fs.readFileSync(path.join(tmp, 'instances.json'), 'utf8')) as Probe;
    const s = await run(
      'seg_it',
      [`model:=${path.join(tmp, 'instance-probe.manifest.json')}`],
      ['detections', 'instances'],
    );
    const { width: W, height: H } = PERSON_JPG;
    const m = s.instances!;
    assert.equal(m.encoding, 'mono16');
    assert.equal(m.frame_id, 'cam');
    assert.deepEqual([m.width, m.height, m.step, m.bytes], [W, H, W * 2, W * H * 2]);
    assert.equal(s.detections?.frame_id, 'cam');
    const dets = s.detections!.items;
    assert.equal(dets.length, probe.instances.length);

    // Source pixel (u, v) has its centre at input ((u + 0.5) k + padX, (v + 0.5) k + padY).
    const k = Math.min(probe.inputSize / W, probe.inputSize / H);
    const padX = Math.floor((probe.inputSize - Math.round(W * k)) / 2);
    const padY = Math.floor((probe.inputSize - Math.round(H * k)) / 2);
    const toSource = ([x, y]: [number, number]): [number, number] => [
      (x - padX) / k,
      (y - padY) / k,
    ];
    const expected = new Uint16Array(W * H);
    for (const d of dets) {
      // Match by box centre, so the test does not assume which id the node gives which instance.
      const [cx, cy] = [d.box[0], d.box[1]];
      const inst = probe.instances.find((p) => {
        const [x0, y0] = toSource([p.box[0], p.box[1]]);
        const [x1, y1] = toSource([p.box[2], p.box[3]]);
        return Math.abs((x0 + x1) / 2 - cx) < 1 && Math.abs((y0 + y1) / 2 - cy) < 1;
      });
      assert.ok(inst, `detection ${d.id} at (${cx}, ${cy}) matches no probe instance`);
      assert.equal(d.class_id, String(inst.classId));
      const id = Number(d.id);
      assert.ok(Number.isInteger(id) && id >= 1, `Detection2D.id '${d.id}' is not an instance id`);
      const [mx0, my0] = toSource([inst.mask[0], inst.mask[1]]);
      const [mx1, my1] = toSource([inst.mask[2], inst.mask[3]]);
      for (let v = 0; v < H; v++)
        for (let u = 0; u < W; u++)
          if (u + 0.5 > mx0 && u + 0.5 < mx1 && v + 0.5 > my0 && v + 0.5 < my1)
            expected[v * W + u] = id;
    }
    assert.equal(new Set(dets.map((d) => d.id)).size, dets.length, 'Detection2D ids repeat');
    const got = new Uint16Array(
      new Uint8Array(fs.readFileSync(path.join(tmp, 'instances.bin'))).buffer,
    );
    assert.equal(got.length, W * H);
    const wrong = mismatches(got, expected, W);
    assert.equal(wrong.count, 0, `${wrong.count} pixels differ, first ${wrong.first}`);
  });

  it('DeepLab: the mono8 class map equals an independent argmax of the same logits', async function () {
    // 1560x520 stretched to the 520x520 input samples every third column exactly (half-pixel
    // centres: x = 3 i + 1) and every row, so the network input has no interpolated pixel and the
    // reference (tools/engine/reference.py: numpy preprocessing + onnxruntime in Python) feeds the
    // network the same values as the addon's fused preprocessing, up to float rounding of the
    // normalization. Labels come back by nearest grid cell: column u -> floor((u + 0.5) / 3).
    const W = 1560;
    const H = 520;
    const rgb = await sharp(repoPath('.cache', 'photos', 'horses.jpg'))
      .resize(W, H, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const dir = fs.mkdtempSync(path.join(tmp, 'sem-'));
    await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toFile(path.join(dir, 'horses.png'));
    const manifest = repoPath(
      'models',
      'deeplabv3',
      'deeplabv3-mobilenetv3-large-520.manifest.json',
    );
    const mf = JSON.parse(fs.readFileSync(manifest, 'utf8')) as DeeplabManifest;
    const n = mf.input.normalization;
    const [ref] = reference([
      {
        frame: { data: rgb, width: W, height: H, step: W * 3, encoding: 'rgb8' },
        spec: {
          width: mf.input.width,
          height: mf.input.height,
          channels: 3,
          layout: 'nchw',
          colorOrder: 'rgb',
          resize: 'stretch',
          padValue: 0,
          // reference.py normalizes raw pixel values: (p - mean') / std' with p in 0..255.
          mean: n.mean.map((m) => m / n.scale),
          std: n.std.map((d) => d / n.scale),
          type: 'float32',
        },
        model: path.join(path.dirname(manifest), mf.files.fp32),
        output: mf.outputs.logits.name,
      },
    ]);
    const [, C, GH, GW] = ref!.dims as [number, number, number, number];
    const logits = new Float32Array(new Uint8Array(ref!.data).buffer); // copy: aligned
    const grid = new Uint8Array(GH * GW);
    for (let p = 0; p < GH * GW; p++) {
      let best = 0;
      for (let c = 1; c < C; c++)
        if (logits[c * GH * GW + p]! > logits[best * GH * GW + p]!) best = c;
      grid[p] = best;
    }
    const expected = new Uint8Array(W * H);
    for (let v = 0; v < H; v++)
      for (let u = 0; u < W; u++)
        expected[v * W + u] =
          grid[Math.floor(((v + 0.5) * GH) / H) * GW + Math.floor(((u + 0.5) * GW) / W)]!;
    assert.ok(
      new Set(grid).size >= 2,
      'the reference map has one class: the comparison would be weak',
    );

    const s = await run('sem_it', [`model:=${manifest}`], ['segmentation'], dir);
    const m = s.segmentation!;
    assert.equal(m.encoding, 'mono8');
    assert.equal(m.frame_id, 'cam');
    assert.deepEqual([m.width, m.height, m.step, m.bytes], [W, H, W, W * H]);
    const got = new Uint8Array(fs.readFileSync(path.join(tmp, 'segmentation.bin')));
    const wrong = mismatches(got, expected, W);
    // The two normalizations round differently in the last float bit, which can flip an argmax
    // only where two logits of an (untrained) network tie to ~1e-6: allow 0.1 % of the pixels.
    assert.ok(
      wrong.count <= 0.001 * W * H,
      `${wrong.count} of ${W * H} pixels differ from the reference, first ${wrong.first}`,
    );
  });

  it('refuses HRNet without a person_detector, naming the parameter', async function () {
    const p = startNode('perceptionNode', 'pose_bad', [
      `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
    ]);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    assert.match(p.stderr(), /ConfigError: .*person_detector/);
  });
});
