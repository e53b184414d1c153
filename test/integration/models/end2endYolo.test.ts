import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cutAtRawHead } from '../../../src/model/cutAtRawHead';
import {
  frameOptions,
  PERCEPTION_DEFAULTS,
  parsePerceptionConfig,
} from '../../../src/config/perceptionConfig';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { PerceptionPipeline } from '../../../src/pipeline/perceptionPipeline';
import type { Detection } from '../../../src/core/headResults';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { boxIou, type Corners } from '../../support/boxIou';
import { tempDir } from '../../support/tempDir';
import { repoPath } from '../../support/paths';
import { PHOTO_DIR, photoFrame } from '../../support/photos';
import { runToolsPython } from '../../support/toolsPython';

// The YOLO11n exports of PyPI isat-plugin-auto-annotate 1.2.1 (Ultralytics 8.3.105, nms=True):
// end-to-end rows [1, 300, 6 (+ 32)], NMS inside the graph. Given as the .onnx itself, so the
// manifest is derived in memory from the file's metadata and tensors. Bootstrap step 71 fetches
// them; models/yolo11n* ship them cut at the raw head.
const DETECT = repoPath('.cache', 'registry-models', 'yolo11n.onnx');
const SEGMENT = repoPath('.cache', 'registry-models', 'yolo11n-seg.onnx');
const CPU = { provider: 'cpu', precision: 'fp32', threads: 2 } as const;

interface RefRow {
  box: [number, number, number, number];
  score: number;
  cls: number;
}

/**
 * The model's own rows with score > 0.25 for each photo, run by onnxruntime in Python on the
 * project's reference letterbox (tools/models/common.py) and mapped back to source pixels there:
 * an independent path for everything our engine and head do.
 */
function reference(model: string, photos: readonly string[]): Record<string, RefRow[]> {
  const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(repoPath('tools', 'models'))})
import numpy as np, onnxruntime as ort
from common import letterbox, read_rgb, to_nchw_float
s = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
out = {}
for p in sys.argv[3:]:
    rgb = read_rgb(__import__("pathlib").Path(sys.argv[2]) / p)
    img, gain, left, top = letterbox(rgb, 640, 114)
    rows = s.run(None, {"images": to_nchw_float(img)})[0][0]
    h, w = rgb.shape[:2]
    keep = []
    for r in rows:
        if r[4] <= 0.25:
            continue
        x1, x2 = [min(max((v - left) / gain, 0), w) for v in (r[0], r[2])]
        y1, y2 = [min(max((v - top) / gain, 0), h) for v in (r[1], r[3])]
        keep.append({"box": [float(x1), float(y1), float(x2), float(y2)], "score": float(r[4]), "cls": int(round(float(r[5])))})
    out[p] = keep
print(json.dumps(out))
`;
  return JSON.parse(runToolsPython(['-c', script, model, PHOTO_DIR, ...photos])) as Record<
    string,
    RefRow[]
  >;
}

function detectionsOf(r: PipelineResult): readonly Detection[] {
  if (r.task === 'detect') return r.detections;
  if (r.task === 'segment') return r.instances;
  throw new Error(`expected detections, got ${r.task}`);
}

function names(p: ModelPipeline, ds: readonly Detection[]): string[] {
  return [...new Set(ds.map((d) => p.manifest.classNames[d.classId]!))].sort();
}

/** The best match of `box` among `others` of class `cls` (IoU, index; -1 when none). */
function bestMatch(
  box: Corners,
  cls: number,
  others: readonly { box: Corners; cls: number }[],
): [number, number] {
  let best = -1;
  let bestIou = 0;
  others.forEach((o, i) => {
    if (o.cls !== cls) return;
    const v = boxIou(box, o.box);
    if (v > bestIou) [best, bestIou] = [i, v];
  });
  return [best, bestIou];
}

/**
 * Both ways, for detections scoring 0.3 or more on either side (rows near the 0.25 threshold may
 * fall either side of it from a rounding in the resize): one of the same class at IoU >= 0.9 and a
 * score within 0.03.
 */
function assertMatches(ours: readonly Detection[], ref: readonly RefRow[], what: string): void {
  const a = ours.map((d) => ({ box: d.box, cls: d.classId, score: d.score }));
  const b = ref.map((r) => ({
    box: { x1: r.box[0], y1: r.box[1], x2: r.box[2], y2: r.box[3] },
    cls: r.cls,
    score: r.score,
  }));
  for (const [from, to, dir] of [
    [a, b, 'ours in the reference'],
    [b, a, 'the reference in ours'],
  ] as const) {
    for (const d of from.filter((x) => x.score >= 0.3)) {
      const [i, iou] = bestMatch(d.box, d.cls, to);
      assert.ok(i >= 0 && iou >= 0.9, `${what}: ${dir}: class ${d.cls} best IoU ${iou}`);
      assert.ok(Math.abs(to[i]!.score - d.score) <= 0.03, `${what}: ${dir}: class ${d.cls} score`);
    }
  }
}

describe('Ultralytics end-to-end exports (YOLO11n, NMS inside the model) through ModelPipeline', function () {
  this.timeout(300_000);
  let detect: ModelPipeline;
  let segment: ModelPipeline;
  before(async function () {
    for (const f of [DETECT, SEGMENT])
      assert.ok(fs.existsSync(f), `${f} missing: run scripts/bootstrap.sh (step 71)`);
    detect = await ModelPipeline.load(DETECT, CPU);
    segment = await ModelPipeline.load(SEGMENT, CPU);
  });
  after(() => {
    detect?.dispose();
    segment?.dispose();
  });

  it('derives end-to-end manifests from the files themselves', function () {
    assert.equal(detect.manifest.outputs.format, 'ultralytics-end2end');
    assert.equal(segment.manifest.outputs.format, 'ultralytics-end2end');
    assert.equal(detect.manifest.classNames.length, 80);
  });

  it('finds the COCO objects where they are: a dog and a bicycle, a person, a dog and a horse', async function () {
    const dog = detectionsOf(await detect.run(await photoFrame('dog.jpg')));
    const person = detectionsOf(await detect.run(await photoFrame('person.jpg')));
    assert.ok(names(detect, dog).includes('dog') && names(detect, dog).includes('bicycle'));
    assert.deepEqual(names(detect, person), ['dog', 'horse', 'person']);
    // The person stands left of the horse in person.jpg; the dog is at the bottom left.
    const byName = (n: string) =>
      person.find((d) => detect.manifest.classNames[d.classId] === n)!.box;
    assert.ok(byName('person').x2 < byName('horse').x2);
    assert.ok(byName('dog').y1 > byName('person').y1);
  });

  it('gives the model rows an independent reference maps to source pixels (detect and segment)', async function () {
    const photos = ['dog.jpg', 'person.jpg', 'horses.jpg', 'kite.jpg'];
    for (const [p, model] of [
      [detect, DETECT],
      [segment, SEGMENT],
    ] as const) {
      const ref = reference(model, photos);
      for (const photo of photos) {
        const ours = detectionsOf(await p.run(await photoFrame(photo)));
        assert.ok(ref[photo]!.length > 0, `${photo}: the reference finds something`);
        assertMatches(ours, ref[photo]!, `${p.name} ${photo}`);
      }
    }
  });

  it('applies the score threshold, class filter and detection cap to the model rows', async function () {
    const frame = await photoFrame('kite.jpg');
    const all = detectionsOf(await detect.run(frame));
    assert.ok(all.length >= 6, `kite.jpg: ${all.length} detections`);
    try {
      detect.setThresholds({ score: 0.5, iou: 0.7, maxDetections: 300 });
      const high = detectionsOf(await detect.run(frame));
      assert.deepEqual(
        high,
        all.filter((d) => d.score > 0.5),
      );
      detect.setThresholds({ score: 0.25, iou: 0.7, maxDetections: 300, classes: [0] });
      const people = detectionsOf(await detect.run(frame));
      assert.deepEqual(
        people,
        all.filter((d) => d.classId === 0),
      );
      detect.setThresholds({ score: 0.25, iou: 0.7, maxDetections: 3 });
      assert.deepEqual(detectionsOf(await detect.run(frame)), all.slice(0, 3));
    } finally {
      detect.setThresholds({ score: 0.25, iou: 0.7, maxDetections: 300 });
    }
  });

  it('cut at the raw head (our NMS on the CPU), finds what the embedded NMS found', async function () {
    const dir = tempDir('htp-e2e-cut-');
    for (const [p, model] of [
      [detect, DETECT],
      [segment, SEGMENT],
    ] as const) {
      const file = path.join(dir, path.basename(model));
      const { bytes, embeddedNms } = cutAtRawHead(fs.readFileSync(model));
      fs.writeFileSync(file, bytes);
      const cut = await ModelPipeline.load(file, CPU);
      try {
        // Our NMS with the export's own IoU (0.7 for yolo11n, 0.45 for yolo11n-seg) and conf.
        cut.setThresholds({
          score: embeddedNms.scoreThreshold ?? NaN,
          iou: embeddedNms.iouThreshold ?? NaN,
          maxDetections: 300,
        });
        assert.equal(cut.manifest.outputs.format, 'ultralytics-packed');
        for (const photo of ['dog.jpg', 'person.jpg', 'horses.jpg', 'kite.jpg']) {
          const frame = await photoFrame(photo);
          const ours = detectionsOf(await cut.run(frame));
          const embedded = detectionsOf(await p.run(frame));
          const what = `${p.name} ${photo}`;
          assert.equal(ours.length, embedded.length, what);
          embedded.forEach((d, i) => {
            // Both best first: the same detection at the same rank.
            const o = ours[i]!;
            assert.equal(o.classId, d.classId, what);
            assert.ok(boxIou(o.box, d.box) > 0.999 && Math.abs(o.score - d.score) < 1e-5, what);
          });
        }
      } finally {
        cut.dispose();
      }
    }
  });

  it('tracks the model rows as it tracks the packed layout: ids from the first frame, stable', async function () {
    const c = parsePerceptionConfig({
      ...PERCEPTION_DEFAULTS,
      model: SEGMENT,
      tracking: true,
      threads: 2,
    });
    const p = await PerceptionPipeline.load(c, frameOptions(c));
    try {
      const frame = await photoFrame('person.jpg');
      const runs: string[][] = [];
      for (let i = 0; i < 3; i++) {
        const { result } = await p.run(frame);
        assert.equal(result.task, 'segment');
        runs.push(
          detectionsOf(result)
            .map((d) => `${String(d.trackId)} ${p.model.manifest.classNames[d.classId]!}`)
            .sort(),
        );
      }
      // ByteTrack confirms the first frame's tracks at once: the horse, the person, the dog.
      assert.equal(runs[0]!.length, 3, runs[0]!.join(', '));
      assert.deepEqual(runs[0]!.map((r) => r.split(' ')[1]).sort(), ['dog', 'horse', 'person']);
      assert.ok(runs[0]!.every((r) => /^[1-3] /.test(r)));
      assert.deepEqual(runs[1], runs[0]);
      assert.deepEqual(runs[2], runs[0]);
    } finally {
      p.dispose();
    }
  });

  it('gives each segmented instance a mask inside its box, mostly on over the object', async function () {
    const r = await segment.run(await photoFrame('person.jpg'));
    assert.equal(r.task, 'segment');
    if (r.task !== 'segment') return;
    assert.deepEqual(names(segment, r.instances), ['dog', 'horse', 'person']);
    for (const inst of r.instances) {
      const m = inst.mask;
      assert.ok(m.x >= Math.floor(inst.box.x1) && m.x + m.width <= Math.ceil(inst.box.x2));
      assert.ok(m.y >= Math.floor(inst.box.y1) && m.y + m.height <= Math.ceil(inst.box.y2));
      const on = m.data.reduce((a, b) => a + b, 0);
      // A person, a dog and a horse fill a fair part of their boxes, never all of it.
      const fill = on / (m.width * m.height);
      assert.ok(fill > 0.3 && fill < 0.95, `${segment.manifest.classNames[inst.classId]}: ${fill}`);
    }
  });
});
