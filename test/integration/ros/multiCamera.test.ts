import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { photoDirWith } from '../../support/photos';
import type { DetectionsMsg, DiagnosticStatus } from '../../support/rosClient';
import { repoPath } from '../../support/paths';
import { RunningProcess, startNode, startProcess } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';

/** Each camera's photo and a COCO class only that photo has (yolo11n's class index). */
const CAMERAS = {
  front: { photo: 'giraffe.jpg', class: '23' },
  rear: { photo: 'kite.jpg', class: '33' },
  left: { photo: 'motorcycle_left.png', class: '3' },
  right: { photo: 'horses.jpg', class: '17' },
} as const;
type Camera = keyof typeof CAMERAS;
const NAMES = Object.keys(CAMERAS) as Camera[];
const BAD_CAMERA = repoPath('test', 'fixtures', 'ros', 'bad_image_publisher.py');

/** How the node's one session serves the cameras: yolo11n one after another, yolo11n-b4 batched. */
interface Variant {
  readonly node: string;
  readonly model: string;
  readonly params: readonly string[];
  readonly batching: RegExp;
  readonly batched: boolean;
}

const VARIANTS: readonly Variant[] = [
  {
    node: 'mc_it',
    model: 'yolo11n',
    params: [],
    batching: /^one after another: yolo11n takes batch 1 \(make a batch-4 copy/,
    batched: false,
  },
  {
    // Cameras at 2 Hz in no common phase: a window of most of a period lets their frames meet.
    node: 'mc_b4',
    model: 'yolo11n-b4',
    params: ['batch_window_ms:=400'],
    batching: /^batched: up to 4 cameras' frames per run \(batch 4\)$/,
    batched: true,
  },
];

for (const variant of VARIANTS) describeCameras(variant);

/**
 * One perception_node serving four cameras with one model session, over real DDS: four image
 * sources publish different photos on <camera>/image_raw, the node publishes each camera's
 * results under ~/<camera>/ with that camera's header and content, and a camera that stops or
 * changes size leaves the others running. With a batch-4 model the same holds with the cameras'
 * frames run together.
 */
function describeCameras(variant: Variant): void {
  const NODE = variant.node;
  describe(`several cameras, one model (${variant.model}, cameras:=[front, rear, left, right]) over real DDS`, function () {
    this.timeout(300_000);
    const bed = useRosTestBed();
    const sources = new Map<Camera, RunningProcess>();
    const dirs: string[] = [];
    let perception: RunningProcess;

    const startCamera = (cam: Camera, extra: string[] = []): RunningProcess => {
      const dir = photoDirWith(CAMERAS[cam].photo);
      dirs.push(dir);
      const p = bed.own(
        startNode(
          'imageSourceNode',
          `src_${cam}`,
          [`directory:=${dir}`, 'rate_hz:=2.0', `frame_id:=${cam}_optical`, ...extra],
          ['-r', `image:=/${cam}/image_raw`],
        ),
      );
      sources.set(cam, p);
      return p;
    };

    before(async () => {
      const node = (perception = bed.own(
        startNode('perceptionNode', NODE, [
          'threads:=2',
          `model:=${variant.model}`,
          `cameras:=[${NAMES.join(', ')}]`,
          'input_timeout_s:=2.0',
          ...variant.params,
        ]),
      ));
      await node.waitFor(/nodes by provider/, 90_000);
      for (const cam of NAMES) await bed.client.watch(`/${NODE}/${cam}/detections`, 'detections');
      for (const cam of NAMES) startCamera(cam);
    });

    after(() => {
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    });

    const take = (cam: Camera, n: number, timeoutS = 60) =>
      bed.client.take<DetectionsMsg>(`/${NODE}/${cam}/detections`, n, timeoutS);

    async function diagnosticsWhen(
      who: string,
      ready: (d: DiagnosticStatus) => boolean,
      what: string,
    ): Promise<DiagnosticStatus> {
      let d: DiagnosticStatus | undefined;
      for (let i = 0; i < 40; i++) {
        d = await bed.client.diagnostics(who, 5);
        if (d.values && ready(d)) return d;
      }
      assert.fail(`${who}: ${what}; last ${JSON.stringify(d)}`);
    }

    it("publishes each camera's own detections under ~/<camera>/, with its header, from one model session", async function () {
      for (const cam of NAMES) {
        const msgs = await take(cam, 2);
        assert.ok(msgs.length >= 2, `${cam}: ${msgs.length} messages`);
        for (const m of msgs) assert.equal(m.frame_id, `${cam}_optical`, `${cam}: its own header`);
        const classes = new Set(msgs.flatMap((m) => m.items.map((d) => d.class_id)));
        assert.ok(classes.has(CAMERAS[cam].class), `${cam}: ${[...classes].join(',')}`);
        // Nothing of the other cameras' photos.
        for (const other of NAMES.filter((o) => o !== cam)) {
          assert.ok(!classes.has(CAMERAS[other].class), `${cam} shows ${other}'s class`);
        }
      }
      const node = await diagnosticsWhen(
        NODE,
        (d) => d.values.model_sessions !== undefined,
        'a node status',
      );
      assert.equal(node.values.model_sessions, '1', 'the model is loaded once for four cameras');
      assert.equal(node.values.cameras, NAMES.join(', '));
      assert.match(node.values.batching ?? '', variant.batching);
      if (variant.batched) {
        const runs = await diagnosticsWhen(
          NODE,
          (d) => Number(d.values.batched_runs) >= 4,
          'batched runs',
        );
        // More than one camera's frame per run on average: the frames really shared runs.
        assert.ok(
          Number(runs.values.frames_per_batched_run) > 1.2,
          `frames per batched run ${runs.values.frames_per_batched_run}`,
        );
      } else {
        assert.equal(node.values.batched_runs, '0');
      }
      for (const cam of NAMES) {
        const d = await diagnosticsWhen(
          `${NODE}/${cam}`,
          (s) => Number(s.values.processed) > 0,
          'frames processed',
        );
        assert.equal(d.values.input, `/${cam}/image_raw`);
      }
    });

    it("keeps the other cameras' rates when one stops, and says which one is silent", async function () {
      await sources.get('rear')!.stop();
      await diagnosticsWhen(
        `${NODE}/rear`,
        (d) => d.level === 1 && /no image on \/rear\/image_raw/.test(d.message),
        'rear stale',
      );
      for (const cam of ['front', 'left', 'right'] as const) {
        await bed.client.clear(`/${NODE}/${cam}/detections`);
        const msgs = await take(cam, 3, 20);
        assert.ok(msgs.length >= 3, `${cam} after rear stopped: ${msgs.length} messages in 20 s`);
      }
      const node = await bed.client.diagnostics(NODE, 5);
      assert.match(node.message, /rear: no image on \/rear\/image_raw/);
    });

    it('a camera that changes resolution affects only its own outputs', async function () {
      await sources.get('left')!.stop();
      startCamera('left', ['width:=320', 'height:=240']);
      await diagnosticsWhen(
        `${NODE}/left`,
        (d) => d.values.input_format?.startsWith('320x240') === true,
        'left at 320x240',
      );
      const right = await bed.client.diagnostics(`${NODE}/right`, 5);
      assert.equal(right.values.input_format_changes, '0', "right's format never changed");
      for (const cam of ['front', 'right', 'left'] as const) {
        await bed.client.clear(`/${NODE}/${cam}/detections`);
        const msgs = await take(cam, 2, 20);
        assert.ok(msgs.length >= 2, `${cam}: ${msgs.length}`);
      }
    });

    it('a camera flooded with malformed frames counts them as its own; the others see none and keep their rates', async function () {
      const flood = bed.own(
        startProcess('python3', [BAD_CAMERA, '--topic', '/right/image_raw', '--rate', '50']),
      );
      await flood.waitFor(/^ready$/m, 30_000);
      const floodFrom = Date.now();
      const right = await diagnosticsWhen(
        `${NODE}/right`,
        (d) => Number(d.values.bad_frames) >= 100,
        'right counting bad frames',
      );
      assert.deepEqual(
        Object.keys(JSON.parse(right.values.bad_frames_by_reason!) as object).sort(),
        ['DATA_TOO_SHORT', 'STEP_TOO_SMALL', 'UNKNOWN_ENCODING', 'ZERO_SIZE'],
      );
      for (const cam of ['front', 'left'] as const) {
        const d = await bed.client.diagnostics(`${NODE}/${cam}`, 5);
        assert.equal(d.values.bad_frames, '0', `${cam} took none of right's bad frames`);
      }
      // Right's own good frames still go through beside the bad ones, and so do the others'.
      for (const cam of ['front', 'left', 'right'] as const) {
        await bed.client.clear(`/${NODE}/${cam}/detections`);
        const msgs = await take(cam, 2, 20);
        assert.ok(msgs.length >= 2, `${cam} during the flood: ${msgs.length}`);
      }
      await flood.stop();
      // Hundreds of bad frames, a few warning lines: the log names right's topic at most once per
      // 5 s per reason.
      const seconds = (Date.now() - floodFrom) / 1000;
      const warnings = (perception.stdout() + perception.stderr())
        .split('\n')
        .filter((l) => /^\[WARN\]/.test(l) && l.includes('/right/image_raw')).length;
      assert.ok(warnings >= 1, 'the flood was logged');
      assert.ok(
        warnings <= 4 * (Math.ceil(seconds / 5) + 1),
        `${warnings} warning lines in ${seconds.toFixed(1)} s`,
      );
    });
  });
}
