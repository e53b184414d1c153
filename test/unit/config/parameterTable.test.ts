import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { parameterSpec as spec } from '../../../src/core/parameterSpec';
import { tableDefaults, tableDescriptions, tableSchema } from '../../../src/config/parameterTable';
import { CONTAINER_DEFAULTS, parseContainerConfig } from '../../../src/config/containerConfig';
import {
  IMAGE_SOURCE_DEFAULTS,
  parseImageSourceConfig,
} from '../../../src/config/imageSourceConfig';
import {
  parsePassThroughConfig,
  PASS_THROUGH_DEFAULTS,
} from '../../../src/config/passThroughConfig';
import { ConfigError } from '../../../src/core/configError';

describe('config/parameterTable', function () {
  const table = {
    rate: spec(z.number().min(1).max(5), 2, 'fixed', 'how often'),
    name: spec(z.enum(['a', 'b']), 'a', 'frame', 'which one'),
  };

  it('derives defaults, descriptions and a schema that checks each parameter', function () {
    assert.deepEqual(tableDefaults(table), { rate: 2, name: 'a' });
    assert.deepEqual(tableDescriptions(table), { rate: 'how often', name: 'which one' });
    const schema = tableSchema(table);
    assert.deepEqual(schema.parse({ rate: 5, name: 'b' }), { rate: 5, name: 'b' });
    assert.equal(schema.safeParse({ rate: 6, name: 'b' }).success, false);
    assert.equal(schema.safeParse({ rate: 3, name: 'c' }).success, false);
  });

  it("every node's defaults pass its own schema (the container's need a pipeline)", function () {
    assert.deepEqual(parseImageSourceConfig(IMAGE_SOURCE_DEFAULTS), IMAGE_SOURCE_DEFAULTS);
    assert.deepEqual(parsePassThroughConfig(PASS_THROUGH_DEFAULTS), PASS_THROUGH_DEFAULTS);
    assert.throws(() => parseContainerConfig(CONTAINER_DEFAULTS), /name at least one pipeline/);
    assert.deepEqual(parseContainerConfig({ pipelines: ['det', 'pose'] }), {
      pipelines: ['det', 'pose'],
    });
  });

  it('refuses a bad value naming the node and the parameter', function () {
    assert.throws(
      () => parseImageSourceConfig({ ...IMAGE_SOURCE_DEFAULTS, max_side: 20000 }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /image_source parameters/.test(e.message) &&
        /max_side/.test(e.message),
    );
    assert.throws(
      () => parseContainerConfig({ pipelines: ['det', 'det'] }),
      /pipeline names must be unique/,
    );
  });

  it("image_source's camera size: width and height together, not beside max_side", function () {
    const ok = parseImageSourceConfig({ ...IMAGE_SOURCE_DEFAULTS, width: 640, height: 480 });
    assert.deepEqual([ok.width, ok.height], [640, 480]);
    assert.throws(
      () => parseImageSourceConfig({ ...IMAGE_SOURCE_DEFAULTS, width: 640 }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /width and height are set together \(got width 640, height 0/.test(e.message),
    );
    assert.throws(
      () =>
        parseImageSourceConfig({
          ...IMAGE_SOURCE_DEFAULTS,
          width: 640,
          height: 480,
          max_side: 320,
        }),
      (e: unknown) => e instanceof ConfigError && /max_side and width\/height/.test(e.message),
    );
  });
});
