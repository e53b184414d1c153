import { strict as assert } from 'node:assert';
import {
  PERCEPTION_INTERRUPT_BUDGET,
  tierUpPerFrameCodeSooner,
} from '../../../../src/nodes/process/jsTiering';

describe('tierUpPerFrameCodeSooner', function () {
  const saved = { options: process.env.NODE_OPTIONS, tiering: process.env.HTP_JS_TIERING };
  afterEach(function () {
    for (const [name, value] of [
      ['NODE_OPTIONS', saved.options],
      ['HTP_JS_TIERING', saved.tiering],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('applies our budget when nobody chose one', function () {
    delete process.env.NODE_OPTIONS;
    delete process.env.HTP_JS_TIERING;
    assert.equal(tierUpPerFrameCodeSooner(), PERCEPTION_INTERRUPT_BUDGET);
  });

  it("leaves a user's --interrupt-budget alone", function () {
    process.env.NODE_OPTIONS = '--max-old-space-size=512 --interrupt-budget=65536';
    assert.equal(tierUpPerFrameCodeSooner(), undefined);
  });

  it("keeps V8's default with HTP_JS_TIERING=default", function () {
    delete process.env.NODE_OPTIONS;
    process.env.HTP_JS_TIERING = 'default';
    assert.equal(tierUpPerFrameCodeSooner(), undefined);
  });
});
