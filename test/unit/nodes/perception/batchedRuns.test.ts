import { strict as assert } from 'node:assert';
import {
  BatchedRuns,
  batchingStatement,
  idleSlots,
} from '../../../../src/nodes/perception/batchedRuns';

describe('batchingStatement', () => {
  const facts = { model: 'yolo11n', batch: 1, topDown: false, cameras: 4 };

  it('says a batch-1 model runs the cameras one after another and names the copy to make', () => {
    assert.equal(
      batchingStatement(facts),
      "one after another: yolo11n takes batch 1 (make a batch-4 copy with 'htp-perception model import yolo11n --batch 4')",
    );
  });

  it('says a batched model runs several cameras per run, and which slots stay idle', () => {
    assert.equal(
      batchingStatement({ ...facts, model: 'yolo11n-b4', batch: 4 }),
      "batched: up to 4 cameras' frames per run (batch 4)",
    );
    assert.match(
      batchingStatement({ ...facts, batch: 4, cameras: 2 }),
      /up to 2 cameras' frames per run \(batch 4\); 2 slot\(s\) idle per run/,
    );
  });

  it('says why a top-down pose model and a single camera do not batch', () => {
    assert.match(batchingStatement({ ...facts, topDown: true }), /per person crop/);
    assert.equal(batchingStatement({ ...facts, cameras: 1 }), 'one frame per run (one camera)');
  });

  it('says a batch-N model on one camera runs idle slots every frame, and counts them', () => {
    const one = { ...facts, model: 'yolo11n-b4', batch: 4, cameras: 1 };
    assert.match(
      batchingStatement(one),
      /^one camera on a batch-4 model: 3 of its 4 slots run idle/,
    );
    assert.equal(idleSlots(one), 3);
    assert.equal(idleSlots({ ...one, cameras: 2 }), 2);
    assert.equal(idleSlots({ ...one, cameras: 6 }), 0);
    assert.equal(idleSlots(facts), 0);
  });

  it('counts runs and frames', () => {
    const b = new BatchedRuns();
    b.count(4);
    b.count(2);
    assert.deepEqual(b.total, { runs: 2, frames: 6 });
  });
});
