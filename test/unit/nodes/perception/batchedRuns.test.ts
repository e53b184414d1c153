import { strict as assert } from 'node:assert';
import { BatchedRuns, batchingStatement } from '../../../../src/nodes/perception/batchedRuns';

describe('batchingStatement', () => {
  const facts = { model: 'yolo11n', batch: 1, modelBatch: 1, topDown: false, cameras: 4 };

  it('says a batch-1 model runs the cameras one after another and names the copy to make', () => {
    assert.equal(
      batchingStatement(facts),
      "one after another: yolo11n takes batch 1 (make a batch-4 copy with 'htp-perception model import yolo11n --batch 4')",
    );
  });

  it('says a batched model runs several cameras per run, and which slots stay idle', () => {
    assert.equal(
      batchingStatement({ ...facts, model: 'yolo11n-b4', batch: 4, modelBatch: 4 }),
      "batched: up to 4 cameras' frames per run (batch 4)",
    );
    assert.match(
      batchingStatement({ ...facts, batch: 4, modelBatch: 4, cameras: 2 }),
      /up to 2 cameras' frames per run \(batch 4\); 2 slot\(s\) idle per run/,
    );
  });

  it('says why a top-down pose model and a single camera do not batch', () => {
    assert.match(batchingStatement({ ...facts, topDown: true, modelBatch: 4 }), /per person crop/);
    assert.equal(batchingStatement({ ...facts, cameras: 1 }), 'one frame per run (one camera)');
  });

  it('counts runs and frames', () => {
    const b = new BatchedRuns();
    b.count(4);
    b.count(2);
    assert.deepEqual(b.total, { runs: 2, frames: 6 });
  });
});
