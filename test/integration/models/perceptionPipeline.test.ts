import { strict as assert } from 'node:assert';
import {
  frameOptions,
  PERCEPTION_DEFAULTS,
  parsePerceptionConfig,
} from '../../../src/config/perceptionConfig';
import { PerceptionPipeline } from '../../../src/pipeline/perceptionPipeline';
import type { PersonPose } from '../../../src/core/headResults';
import { photoFrame } from '../../support/photos';

const config = (over: Record<string, unknown>) =>
  parsePerceptionConfig({ ...PERCEPTION_DEFAULTS, threads: 2, ...over });

async function poses(over: Record<string, unknown>): Promise<PersonPose[]> {
  const c = config(over);
  const p = await PerceptionPipeline.load(c, frameOptions(c));
  try {
    const r = await p.run(await photoFrame('person.jpg'));
    assert.equal(r.result.task, 'pose');
    return r.result.task === 'pose' ? r.result.poses : [];
  } finally {
    p.dispose();
  }
}

describe('perception pipeline: top-down pose (HRNet on a person detector)', function () {
  this.timeout(300_000);

  it('sends only the boxes of person_classes to HRNet (person.jpg: one Normal, one Fall)', async () => {
    const base = { model: 'hrnet-w32-256x192', person_detector: 'yolov8s-fall' };
    const both = await poses({ ...base, person_classes: ['Normal', 'Fall'] });
    const normal = await poses({ ...base, person_classes: ['Normal'] });
    const fall = await poses({ ...base, person_classes: ['Fall'] });
    assert.equal(both.length, 2);
    assert.equal(normal.length, 1);
    assert.equal(fall.length, 1);
    const key = (p: PersonPose): string => [p.box.x1, p.box.y1].map((v) => v.toFixed(1)).join();
    assert.deepEqual(new Set(both.map(key)), new Set([...normal, ...fall].map(key)));
    assert.notEqual(key(normal[0]!), key(fall[0]!));
  });

  it('refuses a person detector without any of the person classes, naming what it has', async () => {
    const c = config({ model: 'hrnet-w32-256x192', person_detector: 'yolov8s-fall' });
    await assert.rejects(PerceptionPipeline.load(c, frameOptions(c)), (e: Error) => {
      assert.equal(e.name, 'ConfigError');
      assert.match(
        e.message,
        /person_classes \[person\] names no class of the person detector yolov8s-fall \(Normal, Fall\)/,
      );
      return true;
    });
  });

  it('runs the person detector on the node provider and HTP options (it stayed on the CPU before)', async () => {
    const c = config({
      model: 'hrnet-w32-256x192',
      person_detector: 'yolov8s-fall',
      person_classes: ['Normal', 'Fall'],
      provider: 'htp',
      precision: 'int8',
      htp_profile: 'burst',
    });
    const p = await PerceptionPipeline.load(c, frameOptions(c));
    try {
      const d = p.personDetector!;
      assert.equal(d.providerReport.requested, 'htp');
      assert.ok(
        (d.providerReport.nodesByProvider.QNNExecutionProvider ?? 0) > 0,
        JSON.stringify(d.providerReport.nodesByProvider),
      );
      assert.equal(d.session.power.profile, 'burst');
    } finally {
      p.dispose();
    }
  });
});
