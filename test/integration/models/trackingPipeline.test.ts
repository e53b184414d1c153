import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  frameOptions,
  PERCEPTION_DEFAULTS,
  parsePerceptionConfig,
} from '../../../src/config/perceptionConfig';
import { buildInstanceIdImage } from '../../../src/heads/buildInstanceIdImage';
import { detectionId } from '../../../src/core/detectionId';
import type { Detection } from '../../../src/core/headResults';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { PerceptionPipeline } from '../../../src/pipeline/perceptionPipeline';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';
import { runToolsPython } from '../../support/toolsPython';

// person.jpg through yolov8s-fall: the person as Normal (0.62) and the dog beside them as Fall
// (0.50; this two-class model has no dog). Thresholds low enough that both start tracks on the
// first frame; this is about where the ids go.
const tracking = {
  tracking: true,
  track_high_threshold: 0.4,
  track_new_threshold: 0.45,
  threads: 2,
};

async function load(over: Record<string, unknown>): Promise<PerceptionPipeline> {
  const c = parsePerceptionConfig({ ...PERCEPTION_DEFAULTS, ...tracking, ...over });
  return PerceptionPipeline.load(c, frameOptions(c));
}

/** The tracked objects of a result. */
function objects(r: PipelineResult): Detection[] {
  switch (r.task) {
    case 'detect':
      return r.detections;
    case 'segment':
      return r.instances;
    case 'pose':
      return r.poses;
    case 'semantic':
      return [];
  }
}
const key = (d: Detection) => `${d.trackId}@${d.box.x1.toFixed(0)},${d.box.y1.toFixed(0)}`;

describe('perception pipeline with tracking: ids on poses and instance masks', function () {
  this.timeout(300_000);

  it('top-down pose with its own detector: every pose carries the track id of its box, stable', async () => {
    const p = await load({
      model: 'hrnet-w32-256x192',
      person_detector: 'yolov8s-fall',
      person_classes: ['Normal', 'Fall'],
    });
    try {
      const frame = await photoFrame('person.jpg');
      const runs: string[][] = [];
      for (let i = 0; i < 3; i++) {
        const { result } = await p.run(frame);
        assert.equal(result.task, 'pose');
        if (result.task === 'pose') {
          for (const pose of result.poses) assert.equal(pose.keypoints.length, 17);
        }
        runs.push(objects(result).map(key).sort());
      }
      assert.deepEqual(runs[0], ['1@183,97', '2@50,257']);
      assert.deepEqual(runs[1], runs[0]);
      assert.deepEqual(runs[2], runs[0]);
    } finally {
      p.dispose();
    }
  });

  it("top-down pose fed by a tracking detector (person_source) keeps the detector's ids", async () => {
    const detector = await load({ model: 'yolov8s-fall' });
    const pose = await load({
      model: 'hrnet-w32-256x192',
      person_source: 'detector',
      person_classes: ['Normal', 'Fall'],
    });
    try {
      const frame = await photoFrame('person.jpg');
      const { result: d } = await detector.run(frame);
      assert.equal(objects(d).length, 2);
      // Ids a pose tracker of its own would not give on its first frame.
      const ids = [41, 7];
      const persons = {
        detections: objects(d).map((x, i) => ({ ...x, trackId: ids[i]! })),
        classNames: detector.model.manifest.classNames,
        detector: 'detector',
      };
      const { result } = await pose.run(frame, persons);
      assert.deepEqual(objects(result).map(key).sort(), persons.detections.map(key).sort());
    } finally {
      detector.dispose();
      pose.dispose();
    }
  });

  it('instance segmentation: the instance image pixels are the track ids', async () => {
    // The untrained yolov8n-seg finds nothing: the instance probe places a class-0 object (0.9), a class-2
    // (0.8) and a class-16 (0.7) with known masks (tools/engine/make_instance_probe.py).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-track-seg-'));
    runToolsPython([repoPath('tools', 'engine', 'make_instance_probe.py'), tmp]);
    const over = { model: path.join(tmp, 'instance-probe.manifest.json') };
    const c = parsePerceptionConfig({ ...PERCEPTION_DEFAULTS, ...tracking, ...over });
    // First only class 2 (the car), so its track comes first and the ids differ from the positions.
    const p = await PerceptionPipeline.load(c, frameOptions({ ...c, classes: ['class2'] }));
    try {
      const frame = await photoFrame('person.jpg');
      await p.run(frame);
      p.setFrameOptions(frameOptions(c));
      await p.run(frame); // the other two start tentative tracks
      for (let i = 0; i < 2; i++) {
        const { result } = await p.run(frame);
        assert.equal(result.task, 'segment');
        if (result.task !== 'segment') return;
        // Score order (0, 2, 16); track ids in order of confirmation (class 2 first).
        assert.deepEqual(
          result.instances.map((d) => [d.classId, d.trackId]),
          [
            [0, 2],
            [2, 1],
            [16, 3],
          ],
        );
        const ids = result.instances.map(detectionId);
        assert.deepEqual(ids, [2, 1, 3]);
        const img = buildInstanceIdImage(
          result.instances.map((d) => d.mask),
          frame.width,
          frame.height,
          ids,
        );
        result.instances.forEach((d, k) => {
          const m = d.mask;
          // The centre pixel of each mask region belongs to its instance (band masks).
          const u = m.x + Math.floor(m.width / 2);
          const v = m.y + Math.floor(m.height / 2);
          assert.equal(img[v * frame.width + u], d.trackId, `instance ${k}`);
        });
      }
    } finally {
      p.dispose();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
