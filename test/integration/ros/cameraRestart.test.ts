import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useRosTestBed } from '../../support/rosTestBed';
import type { DetectionsMsg, DiagnosticStatus } from '../../support/rosClient';
import { RunningProcess, startNode, startProcess } from '../../support/rosProcess';
import { boxIou } from '../../support/boxIou';
import { repoPath } from '../../support/paths';

const NODE = 'cam_it';
const TOPIC = `/${NODE}/camera/image`;

/**
 * How long after its stamp the detections of a restarted camera's first frame may reach the
 * client. Issue 35 asks for a second on the robot; a test bound is 3x the worst measured on a
 * loaded machine: 0.17-0.52 s in full runs (the worst, 0.52 s, in CI), 0.13-0.20 s beside a
 * two-core CPU hog (2026-12-02, AMD EPYC). The figure itself is printed with each case.
 */
const RESUME_LAG_S = 1.6;
/** The person in person.jpg (640x424) as yolo11n finds it (source pixels, xyxy). */
const PERSON = { x1: 191.4, y1: 99.34, x2: 274.4, y2: 375.52 };

type TimedDetections = DetectionsMsg & { received_at: number };
const sameStamp = (a: [number, number], b: [number, number]): boolean =>
  a[0] === b[0] && a[1] === b[1];

/**
 * The camera goes away and comes back (issue 35 item 2): one perception node, camera publishers
 * stopped and restarted with another resolution and encoding, over real DDS.
 */
describe('a camera that goes away and comes back in another size and encoding', function () {
  this.timeout(120_000);
  const bed = useRosTestBed('person.jpg');
  let node: RunningProcess;
  let camera: RunningProcess | undefined;

  /** image_source on TOPIC: person.jpg in `encoding`, its longest side `maxSide` (0: 640). */
  const startCamera = (name: string, encoding: string, maxSide: number): RunningProcess => {
    camera = bed.own(
      startNode(
        'imageSourceNode',
        name,
        [
          `directory:=${bed.photoDir}`,
          'rate_hz:=5.0',
          `encoding:=${encoding}`,
          `max_side:=${maxSide}`,
          // Frames start once the node's subscription matched on the publisher's side (its own
          // side may match later: detectionsResume counts the frames the node received).
          'wait_for_subscribers:=1',
        ],
        ['-r', `image:=${TOPIC}`],
      ),
    );
    return camera;
  };

  /** Polls the node's diagnostics (1 Hz) until `ready` holds; fails with the last one seen. */
  async function diagnosticsWhen(
    ready: (d: DiagnosticStatus) => boolean,
  ): Promise<DiagnosticStatus> {
    let d: DiagnosticStatus | undefined;
    for (let i = 0; i < 20; i++) {
      d = await bed.client.diagnostics(NODE, 5);
      if (d.values && ready(d)) return d;
    }
    assert.fail(`diagnostics of ${NODE}: ${JSON.stringify(d)}`);
  }

  /** Where the node's two streams end now: INFO goes to stdout and WARN to stderr. */
  const logMark = (): [number, number] => [node.stdout().length, node.stderr().length];
  /** The node's log lines written after `mark`, both streams, in the order of their timestamps. */
  const logSince = ([out, err]: [number, number]): string =>
    [...node.stdout().slice(out).split('\n'), ...node.stderr().slice(err).split('\n')]
      .filter((line) => line !== '')
      .map((line) => ({ line, t: Number(/^\[\w+\] \[([0-9.]+)\]/.exec(line)?.[1] ?? 0) }))
      .sort((a, b) => a.t - b.t)
      .map(({ line }) => line)
      .join('\n');
  const count = (text: string, pattern: RegExp): number =>
    [...text.matchAll(new RegExp(pattern.source, 'g'))].length;

  /** The node's `received` once two reports in a row agree (no frame on its way in). */
  async function receivedSettled(): Promise<number> {
    let prev = -1;
    for (let i = 0; i < 20; i++) {
      const now = Number((await bed.client.diagnostics(NODE, 5)).values.received);
      if (now === prev) return now;
      prev = now;
    }
    assert.fail(`${NODE}: frames still arriving after 20 reports`);
  }

  /** The node's INFO line on a new input format, written after `mark` (polls its log). */
  async function formatLine(mark: [number, number], timeoutMs: number): Promise<RegExpExecArray> {
    const line =
      /input (?:now )?(\d+)x(\d+) (\w+)(?: \(was [^)]*\))?, from frame (\d+) stamped (\d+)\.(\d{9})/;
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      const m = line.exec(logSince(mark));
      if (m) return m;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`no input format line within ${timeoutMs} ms: ${logSince(mark)}`);
  }

  /**
   * Starts a camera on an idle node, then checks what the node says (issue 35 item 2): the first
   * frame delivered to it is the one it planned the new size and encoding on, that frame's
   * detections reach the client within RESUME_LAG_S of the frame's stamp, and they hold the person
   * where the photo at that size has it. Timed from the first frame the node received, not from
   * the client's first frame: how long DDS discovery takes the node's subscription to match a new
   * publisher is not the node's doing (CI, Jazzy lane: 1.2 s once, where the client had matched).
   */
  async function detectionsResume(name: string, encoding: string, maxSide: number, scale: number) {
    const before = await receivedSettled();
    const mark = logMark();
    await bed.client.clear(`/${NODE}/detections`);
    startCamera(name, encoding, maxSide);
    // The client takes detections all along (it stamps them on arrival only while it spins).
    let line: RegExpExecArray | undefined;
    const lineSeen = formatLine(mark, 60_000).then((m) => (line = m));
    const taken: TimedDetections[] = [];
    const ofLine = (): TimedDetections | undefined =>
      line && taken.find((d) => sameStamp(d.stamp, [Number(line![5]), Number(line![6])]));
    for (let i = 0; i < 60 && !ofLine(); i++) {
      taken.push(...(await bed.client.take<TimedDetections>(`/${NODE}/detections`, 1, 1)));
    }
    const m = await lineSeen;
    const [width, height] = [Math.round(640 * scale), Math.round(424 * scale)];
    assert.deepEqual([Number(m[1]), Number(m[2]), m[3]], [width, height, encoding], m[0]);
    assert.equal(
      Number(m[4]),
      before + 1,
      `the node planned ${encoding} on its frame ${m[4]}, not on the first after ${before}: ${m[0]}`,
    );
    const first = ofLine();
    assert.ok(first, `no detections of the frame of "${m[0]}" (${name})`);
    const lag = first.received_at - (first.stamp[0] + first.stamp[1] / 1e9);
    console.log(
      `      ${name}: node's first frame ${m[4]}, its detections ${lag.toFixed(3)} s after its stamp`,
    );
    assert.ok(
      lag <= RESUME_LAG_S,
      `detections of the node's first ${encoding} frame ${lag.toFixed(2)} s after its stamp`,
    );
    const person = first.items.find((d) => d.class_id === '0');
    assert.ok(person, `no person in ${JSON.stringify(first.items)}`);
    const [cx, cy, w, h] = person.box;
    const box = { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
    const want = {
      x1: PERSON.x1 * scale,
      y1: PERSON.y1 * scale,
      x2: PERSON.x2 * scale,
      y2: PERSON.y2 * scale,
    };
    assert.ok(
      boxIou(box, want) >= 0.8,
      `person at ${JSON.stringify(box)}, expected ${JSON.stringify(want)}`,
    );
  }

  before(async () => {
    node = bed.own(
      startNode(
        'perceptionNode',
        NODE,
        // Named, not left to the default; the lightest detector, since the test times the first
        // detections (within RESUME_LAG_S of their frame's stamp).
        ['threads:=2', 'model:=yolo11n'],
        ['-r', `image:=${TOPIC}`],
      ),
    );
    await node.waitFor(/nodes by provider/, 60_000);
    await bed.client.watchTimed(`/${NODE}/detections`, 'detections');
  });

  it('warns of the silence once, resumes on the first frames of a restarted camera in a new size and encoding, same process', async function () {
    const pid = node.child.pid;
    // rgb8 at the photo's 640x424.
    await detectionsResume('cam_rgb', 'rgb8', 0, 1);
    const silentFrom = logMark();
    await camera!.stop();
    const stale = await diagnosticsWhen((d) => d.level === 1 && d.values.stale_inputs === TOPIC);
    assert.match(stale.message, new RegExp(`^no image on ${TOPIC} for [0-9.]+ s$`));
    const silentS = Number(/for ([0-9.]+) s/.exec(stale.message)![1]);
    assert.ok(silentS >= 2.0, `stale after ${silentS} s, input_timeout_s is 2.0`);
    assert.equal(stale.values.input_timeout_s, '2');
    // Silent for a few more ticks: still stale, still one log line.
    const still = await diagnosticsWhen(
      (d) =>
        d.values.stale_inputs === TOPIC &&
        Number(/for ([0-9.]+) s/.exec(d.message)?.[1]) >= silentS + 1.5,
    );
    assert.equal(still.level, 1);
    assert.equal(
      count(logSince(silentFrom), /no image on \S+ for [0-9.]+ s \(input_timeout_s 2\)/),
      1,
    );
    assert.equal(still.values.lifecycle_state, 'active');

    // yuyv at 320x212: another publisher process, another size, another encoding.
    await detectionsResume('cam_yuyv', 'yuyv', 320, 0.5);
    const ok = await diagnosticsWhen((d) => d.values.stale_inputs === '');
    assert.equal(ok.level, 0, ok.message);
    assert.equal(ok.values.input_format, '320x212 yuyv');
    assert.equal(ok.values.bad_frames, '0');
    assert.equal(ok.values.errors, '0', ok.values.last_error);
    const log = logSince(silentFrom);
    // One line when a silence starts and one when it ends, never one per report. A new camera
    // process can stall again after its first frame on a loaded machine (CI: 2.1 s, logged once
    // and resolved once), so the lines must alternate; the first may end the wait for cam_rgb
    // (logged before the mark, read after it) and the last silence may still be open.
    const lines = log
      .split('\n')
      .map((line) =>
        /no image on \S+ for [0-9.]+ s \(input_timeout_s 2\)/.test(line)
          ? 'silent'
          : /image on \S+ again after up to [0-9.]+ s of silence/.test(line)
            ? 'again'
            : /no image on/.test(line)
              ? 'other'
              : '',
      )
      .filter((kind) => kind !== '');
    if (lines[0] === 'again') lines.shift();
    assert.ok(lines.length >= 2, log);
    lines.forEach((kind, i) => assert.equal(kind, i % 2 === 0 ? 'silent' : 'again', log));

    // bgr8 at 480x318, swapped in at once: a third size and encoding.
    await camera!.stop();
    await detectionsResume('cam_bgr', 'bgr8', 480, 0.75);
    const last = await diagnosticsWhen((d) => d.values.input_format === '480x318 bgr8');
    assert.equal(last.values.bad_frames, '0');
    assert.equal(last.values.errors, '0', last.values.last_error);
    assert.ok(Number(last.values.input_format_changes) >= 2);

    // The same process all along.
    assert.equal(node.child.exitCode, null, node.stderr());
    assert.equal(node.child.pid, pid);
    process.kill(pid!, 0);
  });
});

describe('stale depth and CameraInfo in 3D mode, each on its own', function () {
  this.timeout(120_000);
  const bed = useRosTestBed();
  const NS = '/cam3d';
  const TOPICS = [`${NS}/image_raw`, `${NS}/depth`, `${NS}/camera_info`];
  let node: RunningProcess;
  let dir: string;

  /** The depth camera stand-in: a black 64x48 rgb8 frame and a flat 2 m depth image. */
  const startCamera = (extra: string[]): RunningProcess => {
    const colour = path.join(dir, 'black.rgb');
    const depth = path.join(dir, 'flat.u16');
    fs.writeFileSync(colour, Buffer.alloc(64 * 48 * 3));
    fs.writeFileSync(depth, Buffer.alloc(64 * 48 * 2, 0xd0));
    // A list of arguments: the stand-in's own (tools/ros/depth_camera.py).
    const args = ['--ns', NS, '--colour', colour, '--width', '64', '--height', '48'];
    args.push('--depth', depth, '--depth-encoding', '16UC1', '--depth-width', '64');
    args.push('--depth-height', '48', '--cx', '32', '--cy', '24', '--rate', '5', ...extra);
    return bed.own(startProcess('python3', [repoPath('tools', 'ros', 'depth_camera.py'), ...args]));
  };

  async function diagnosticsWhen(
    ready: (d: DiagnosticStatus) => boolean,
  ): Promise<DiagnosticStatus> {
    let d: DiagnosticStatus | undefined;
    for (let i = 0; i < 20; i++) {
      d = await bed.client.diagnostics('d3_stale', 5);
      if (d.values && ready(d)) return d;
    }
    assert.fail(`diagnostics of d3_stale: ${JSON.stringify(d)}`);
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(repoPath('.cache'), 'tmp-stale-depth-'));
    node = bed.own(
      startNode(
        'perceptionNode',
        'd3_stale',
        ['threads:=1', 'depth:=true', 'model:=yolov8s-fall'],
        [
          '-r',
          `image:=${TOPICS[0]}`,
          '-r',
          `depth:=${TOPICS[1]}`,
          '-r',
          `camera_info:=${TOPICS[2]}`,
        ],
      ),
    );
    await node.waitFor(/nodes by provider/, 60_000);
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a camera without CameraInfo: only camera_info stale; stopped: all three; back: OK; a new input_timeout_s applies live', async function () {
    const camera = startCamera(['--no-info']);
    await camera.waitFor(/^ready$/m, 30_000);
    const noInfo = await diagnosticsWhen((d) => d.values.stale_inputs === TOPICS[2]);
    assert.equal(noInfo.level, 1);
    assert.match(
      noInfo.message,
      new RegExp(`^no CameraInfo on ${TOPICS[2]} for [0-9.]+ s(: results go out in 2D only)?$`),
    );
    assert.ok(Number(noInfo.values.depth_received) > 0, 'depth flows meanwhile');
    // The node may have called everything stale before the camera came: count from here.
    const from = (node.stdout() + node.stderr()).length;
    await camera.stop();
    const all = await diagnosticsWhen((d) => d.values.stale_inputs === TOPICS.join(', '));
    assert.match(
      all.message,
      new RegExp(
        `^no image on ${TOPICS[0]} for [0-9.]+ s; no depth image on ${TOPICS[1]} for [0-9.]+ s; no CameraInfo on ${TOPICS[2]} for [0-9.]+ s$`,
      ),
    );
    const back = startCamera([]);
    await back.waitFor(/^ready$/m, 30_000);
    // OK once a frame has paired with depth and CameraInfo again.
    const ok = await diagnosticsWhen((d) => d.values.stale_inputs === '' && d.level === 0);
    assert.equal(ok.message.endsWith('fps'), true, ok.message);
    await back.stop();
    const log = (node.stdout() + node.stderr()).slice(from);
    const lines = (text: string): number => log.split(text).length - 1;
    // One line each way per topic; CameraInfo was stale all along (one line before `from`).
    for (const [what, topic, stale] of [
      ['image', TOPICS[0], 1],
      ['depth image', TOPICS[1], 1],
      ['CameraInfo', TOPICS[2], 0],
    ] as const) {
      assert.equal(lines(`no ${what} on ${topic} for `), stale, `${what}: ${log}`);
      assert.equal(lines(`${what} on ${topic} again after up to`), 1, `${what}: ${log}`);
    }
    // input_timeout_s is live: at 30.5 s the stopped camera is not stale for a while. (0, off, is
    // a unit test's: the client's JSON sends 0.0 as an integer, which a double parameter refuses.)
    const [set] = await bed.client.setParams('d3_stale', { input_timeout_s: 30.5 });
    assert.ok(set?.successful, set?.reason);
    await diagnosticsWhen((d) => d.values.input_timeout_s === '30.5');
    for (let i = 0; i < 3; i++) {
      const d = await bed.client.diagnostics('d3_stale', 5);
      assert.equal(d.values.stale_inputs, '', JSON.stringify(d));
    }
  });
});
