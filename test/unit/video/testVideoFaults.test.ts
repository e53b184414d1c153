import * as assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/configError';
import {
  environmentTestVideoFaults,
  TEST_VIDEO_FAULTS_VARIABLE,
} from '../../../src/video/testVideoFaults';

describe('the video fault switch plan (HTP_PERCEPTION_TEST_VIDEO_FAULTS)', () => {
  const env = (value: string | undefined): NodeJS.ProcessEnv =>
    value === undefined ? {} : { [TEST_VIDEO_FAULTS_VARIABLE]: value };

  it('is off unless set', () => {
    assert.equal(environmentTestVideoFaults(env(undefined)), undefined);
    assert.equal(environmentTestVideoFaults(env('')), undefined);
  });

  it('reads failAfterFrames', () => {
    assert.deepEqual(environmentTestVideoFaults(env('{"failAfterFrames": 15}')), {
      failAfterFrames: 15,
    });
  });

  it('refuses what it cannot read, naming the variable, rather than testing nothing', () => {
    for (const bad of ['{', '{"failAfterFrames": -1}', '{"failAfter": 3}', '[]']) {
      assert.throws(
        () => environmentTestVideoFaults(env(bad)),
        (e: unknown) => e instanceof ConfigError && e.message.includes(TEST_VIDEO_FAULTS_VARIABLE),
        bad,
      );
    }
  });
});
