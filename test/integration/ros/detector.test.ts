import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  jsonSummary,
  RunningProcess,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { repoPath } from '../../support/paths';
import { photoDirWith } from '../../support/photos';
import { boxIou } from '../../support/boxIou';

const LISTENER = repoPath('test', 'fixtures', 'ros', 'detections_listener.py');

interface Summary {
  detections: {
    frame_id: string;
    items: {
      id: string;
      class_id: string;
      score: number;
      center: [number, number];
      size: [number, number];
      frame_id: string;
    }[];
  }[];
  labels: { classes: [number, string][]; threshold: number } | null;
  jpeg: { format: string; bytes: number; soi: string } | null;
}

describe('detector node over real DDS (image_source -> detector -> rclpy)', function () {
  this.timeout(120_000);
  const procs: RunningProcess[] = [];
  let photoDir: string;
  before(() => {
    photoDir = photoDirWith('person.jpg');
  });
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  it('publishes Detection2DArray with the image header, LabelInfo and an annotated JPEG', async function () {
    const detector = startNode(
      'detectorNode',
      'det_it',
      // The fall detector, whose offline reference boxes and scores this test checks.
      ['threads:=2', 'model:=yolov8s-fall'],
      ['--params-file', repoPath('config', 'perception.yaml')],
    );
    procs.push(detector);
    const loaded = await detector.waitFor(
      /model yolov8s-fall \(fp32\) on cpu: nodes by provider (\{.*?\})/,
      60_000,
    );
    assert.deepEqual(Object.keys(JSON.parse(loaded[1]!) as object), ['CPUExecutionProvider']);
    const listener = startProcess('python3', [LISTENER, 'det_it', '3', '60']);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startPhotoSource('src_it', photoDir, 3, 'front_camera');
    procs.push(source);
    await listener.exited();
    const s = jsonSummary<Summary>(listener);

    assert.ok(s.detections.length >= 3, `only ${s.detections.length} detection messages`);
    assert.deepEqual(s.labels?.classes, [
      [0, 'Normal'],
      [1, 'Fall'],
    ]);
    assert.ok(Math.abs((s.labels?.threshold ?? 0) - 0.25) < 1e-6);
    assert.equal(s.jpeg?.format, 'jpeg');
    assert.equal(s.jpeg?.soi, 'ffd8', 'annotated stream carries a JPEG');
    for (const m of s.detections) {
      assert.equal(m.frame_id, 'front_camera', 'header copied from the image');
      // The person in person.jpg, as the offline reference finds it (source pixels, xyxy).
      const person = m.items.find((d) => d.class_id === '0');
      assert.ok(person, `no person in ${JSON.stringify(m.items)}`);
      const [cx, cy] = person.center;
      const [w, h] = person.size;
      const box = { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
      const reference = { x1: 182.86, y1: 97.33, x2: 289.32, y2: 377.92 };
      assert.ok(boxIou(box, reference) >= 0.9, `person box ${JSON.stringify(box)}`);
      assert.ok(Math.abs(person.score - 0.621) <= 0.02);
      assert.deepEqual(
        m.items.map((d) => d.id),
        m.items.map((_, i) => String(i + 1)),
      );
    }
  });

  it('runs the INT8 model on the QNN provider (x86-64 HTP simulator) and reports node placement', async function () {
    // The Jazzy lane (scripts/test-jazzy.sh) leaves the simulator to the Kilted one: the QNN
    // provider and the engine are the same there, and the simulator's seconds a frame are not.
    if (process.env.HTP_TEST_SKIP_HTP_SIMULATOR === '1') this.skip();
    const detector = startNode('detectorNode', 'det_htp', [
      'model:=yolov8s-fall',
      'provider:=htp',
      'precision:=int8',
      'vtcm_mb:=8',
      // The x86-64 simulator takes seconds per frame: past the default deadline of a board.
      'run_deadline_ms:=120000',
    ]);
    procs.push(detector);
    const loaded = await detector.waitFor(
      /model yolov8s-fall \(int8\) on htp: nodes by provider (\{.*?\})/,
      90_000,
    );
    const nodes = JSON.parse(loaded[1]!) as Record<string, number>;
    // INT8 is fed uint8 by default: the graph's input quantize is done by our preprocessing.
    await detector.waitFor(
      /yolov8s-fall: input fed as uint8 \(scale [0-9.e-]+, zero point 0\), in place of images_QuantizeLinear/,
      10_000,
    );
    assert.ok(
      (nodes.QNNExecutionProvider ?? 0) > 800,
      `QNN took ${nodes.QNNExecutionProvider} nodes`,
    );
    // The box-decode tail stays on the CPU, and the node says so instead of claiming the HTP.
    assert.ok((nodes.CPUExecutionProvider ?? 0) > 0);
    const listener = startProcess('python3', [LISTENER, 'det_htp', '1', '80']);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startPhotoSource('src_htp', photoDir, 1);
    procs.push(source);
    await listener.exited();
    const s = jsonSummary<Summary>(listener);
    assert.ok(s.detections.length >= 1, 'no detections from the HTP path');
    const person = s.detections[0]!.items.find((d) => d.class_id === '0');
    assert.ok(person, 'the quantized model on the simulated HTP still finds the person');
    await source.stop();
  });

  it('with require_accelerator refuses to start, listing the nodes that would run on the CPU', async function () {
    const p = startNode('detectorNode', 'det_req', [
      'model:=yolov8s-fall',
      'provider:=htp',
      'precision:=int8',
      'vtcm_mb:=8',
      'require_accelerator:=true',
    ]);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    assert.match(p.stderr(), /EngineError: .*nodes left to the CPU: .*\(/);
  });

  it('refuses to start with a model that is not there, naming the file, in one line', async function () {
    const p = startNode('detectorNode', 'det_bad', ['model:=/nonexistent/model.manifest.json']);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    assert.match(p.stderr(), /ConfigError: .*\/nonexistent\/model\.manifest\.json/);
    assert.doesNotMatch(p.stderr(), /\n\s+at /, 'no stack trace');
  });

  it('refuses an unknown class name, listing the model classes', async function () {
    // The default model: COCO-80 has giraffes, not unicorns.
    const p = startNode('detectorNode', 'det_cls', ['classes:=[unicorn]']);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    assert.match(
      p.stderr(),
      /'unicorn' is not a class of yolo11n \(person, bicycle, car, .*toothbrush\)/,
    );
  });
});
