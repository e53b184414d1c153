import * as assert from 'node:assert/strict';
import {
  environmentTestFaultPlan,
  parseTestFaultPlan,
  TEST_FAULTS_VARIABLE,
} from '../../../src/engine/testFaultPlan';

describe('engine/testFaultPlan', () => {
  it('reads a plan, and nothing when the variable is unset or empty', () => {
    assert.deepEqual(
      parseTestFaultPlan('{"model":"yolo11n","failRuns":[5,7],"hangRuns":[9,9],"hangMs":4000}'),
      { model: 'yolo11n', failRuns: [5, 7], hangRuns: [9, 9], hangMs: 4000 },
    );
    assert.equal(environmentTestFaultPlan({}), undefined);
    assert.equal(environmentTestFaultPlan({ [TEST_FAULTS_VARIABLE]: '' }), undefined);
    assert.deepEqual(environmentTestFaultPlan({ [TEST_FAULTS_VARIABLE]: '{"failLoads":[2,2]}' }), {
      failLoads: [2, 2],
    });
  });

  it('refuses what would test nothing or something else, naming the field', () => {
    const bad: [string, RegExp][] = [
      ['not json', /HTP_PERCEPTION_TEST_FAULTS is not JSON/],
      ['{"failRuns":[7,5]}', /failRuns: first must not be after last/],
      ['{"failRuns":[0,5]}', /failRuns\.0/],
      ['{"hangRuns":[1,1]}', /hangRuns and hangMs go together/],
      ['{"failruns":[1,1]}', /failruns/],
    ];
    for (const [text, re] of bad) {
      assert.throws(() => parseTestFaultPlan(text), re, text);
    }
  });
});
