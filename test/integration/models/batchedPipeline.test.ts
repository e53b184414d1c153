/**
 * One run for four cameras (issue 44 item 3): yolo11n-b4, the default detector's batch-4 copy
 * (bootstrap step 74: `model import yolo11n --batch 4`, compiled for the HTP at batch 4), run once
 * on four photos must find in each what yolo11n finds in that photo alone: the same classes, boxes
 * within 1e-3 px. On the CPU (FP32 and INT8) and on the HTP simulator (INT8, its own context
 * binary). Each photo has its own size, so each slot has its own letterbox.
 */
import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import type { Frame } from '../../../src/core/frame';
import type { Detection } from '../../../src/core/headResults';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import type { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { requireModelReference } from '../../../src/config/modelSearchPath';
import { photoFrame } from '../../support/photos';

const PHOTOS = ['person.jpg', 'horses.jpg', 'giraffe.jpg', 'kite.jpg'];

function detections(r: PipelineResult): readonly Detection[] {
  assert.equal(r.task, 'detect');
  return r.task === 'detect' ? r.detections : [];
}

async function compare(choices: RuntimeChoices): Promise<void> {
  const frames: Frame[] = [];
  for (const p of PHOTOS) frames.push(await photoFrame(p));
  const single = await ModelPipeline.load(requireModelReference('yolo11n'), choices);
  const batched = await ModelPipeline.load(requireModelReference('yolo11n-b4'), choices);
  try {
    assert.equal(single.batch, 1);
    assert.equal(batched.batch, 4);
    assert.equal(batched.providerReport.requested, choices.provider);
    const alone: PipelineResult[] = [];
    for (const f of frames) alone.push(await single.run(f));
    const together = await batched.runBatch(frames);
    assert.equal(together.length, frames.length);
    const classSets: string[] = [];
    together.forEach((r, slot) => {
      const got = detections(r);
      const want = detections(alone[slot]!);
      const what = `${PHOTOS[slot]} (slot ${slot})`;
      assert.ok(want.length > 0, `${what}: yolo11n found nothing to compare`);
      assert.equal(
        got.length,
        want.length,
        `${what}: ${got.length} detections batched, ${want.length} alone`,
      );
      got.forEach((d, i) => {
        const w = want[i]!;
        assert.equal(d.classId, w.classId, `${what} detection ${i}: class`);
        for (const k of ['x1', 'y1', 'x2', 'y2'] as const) {
          assert.ok(
            Math.abs(d.box[k] - w.box[k]) <= 1e-3,
            `${what} detection ${i}: ${k} ${d.box[k]} batched, ${w.box[k]} alone`,
          );
        }
        assert.ok(Math.abs(d.score - w.score) <= 1e-4, `${what} detection ${i}: score`);
      });
      classSets.push([...new Set(got.map((d) => d.classId))].sort().join(','));
    });
    // Each slot holds its own photo's objects, not another camera's.
    assert.equal(new Set(classSets).size, PHOTOS.length, `class sets ${classSets.join(' | ')}`);
    // One engine run for the four frames: they share its inference time.
    const inference = together.map((r) => r.timings.inferenceMs);
    assert.ok(
      inference.every((ms) => ms === inference[0]),
      inference.join(', '),
    );
  } finally {
    single.dispose();
    batched.dispose();
  }
}

describe('batched pipeline: yolo11n-b4 runs four photos at once as yolo11n runs each alone', function () {
  this.timeout(300_000);

  it('on the CPU, FP32', async () => {
    await compare({ provider: 'cpu', precision: 'fp32', threads: 2 });
  });

  it('on the CPU, INT8 (the input fed quantized)', async () => {
    await compare({ provider: 'cpu', precision: 'int8', threads: 2 });
  });

  // The HTP simulator is an x86-64 library (see test/integration/engine/htpProvider.test.ts).
  const onSimulator = os.platform() === 'linux' && os.arch() === 'x64' ? it : it.skip;
  onSimulator(
    'on the HTP simulator, INT8, from the context binaries compiled for batch 1 and 4',
    async () => {
      await compare({ provider: 'htp', precision: 'int8', threads: 2 });
    },
  );
});
