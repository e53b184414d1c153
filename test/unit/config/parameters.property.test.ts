/**
 * Parameter values from outside (params files, `ros2 param set`, a service call): every table's
 * zod gate and the ROS change gate in front of it, fed values of every type and range. Rule: a
 * value is taken, or refused with a ConfigError / reason that names the parameter (or the one it
 * must agree with); never another exception. The ROS node is a stand-in (pure logic): only the
 * gate's decisions are under test, rclnodejs' own checks run behind it in the integration tests.
 */
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import type * as Rclnodejs from 'rclnodejs';
import { z } from 'zod';
import { ConfigError } from '../../../src/core/configError';
import type { ParameterSpec, ParameterValue } from '../../../src/core/parameterSpec';
import {
  parsePerceptionConfig,
  PERCEPTION_DEFAULTS,
  PERCEPTION_PARAMETERS,
} from '../../../src/config/perceptionConfig';
import {
  IMAGE_SOURCE_DEFAULTS,
  IMAGE_SOURCE_PARAMETERS,
  parseImageSourceConfig,
} from '../../../src/config/imageSourceConfig';
import {
  CONTAINER_DEFAULTS,
  CONTAINER_PARAMETERS,
  parseContainerConfig,
} from '../../../src/config/containerConfig';
import {
  parsePassThroughConfig,
  PASS_THROUGH_DEFAULTS,
  PASS_THROUGH_PARAMETERS,
} from '../../../src/config/passThroughConfig';
import { gateParameterChanges } from '../../../src/ros/declareDescribedParameters';
import { FUZZ_MIN_RUNS, propertyCheck } from '../../support/propertyCheck';

/** Parameters a cross-field rule ties together: a refusal may name either. */
const PARTNERS: Readonly<Record<string, readonly string[]>> = {
  person_detector: ['person_source'],
  person_source: ['person_source'],
  track_high_threshold: ['track_low_threshold', 'track_new_threshold'],
  track_low_threshold: ['track_low_threshold'],
  track_new_threshold: ['track_new_threshold'],
  depth_min_m: ['depth_min_m'],
  depth_max_m: ['depth_min_m'],
};

const TABLES = [
  {
    name: 'perception',
    specs: PERCEPTION_PARAMETERS as Readonly<Record<string, ParameterSpec>>,
    defaults: PERCEPTION_DEFAULTS as Record<string, unknown>,
    parse: (v: unknown) => parsePerceptionConfig(v),
  },
  {
    name: 'image_source',
    specs: IMAGE_SOURCE_PARAMETERS as Readonly<Record<string, ParameterSpec>>,
    defaults: IMAGE_SOURCE_DEFAULTS as Record<string, unknown>,
    parse: parseImageSourceConfig,
  },
  {
    name: 'perception_container',
    specs: CONTAINER_PARAMETERS as Readonly<Record<string, ParameterSpec>>,
    // The default (no pipelines) is refused on purpose: start from one.
    defaults: { ...CONTAINER_DEFAULTS, pipelines: ['detector'] } as Record<string, unknown>,
    parse: parseContainerConfig,
  },
  {
    name: 'pass_through',
    specs: PASS_THROUGH_PARAMETERS as Readonly<Record<string, ParameterSpec>>,
    defaults: PASS_THROUGH_DEFAULTS as Record<string, unknown>,
    parse: parsePassThroughConfig,
  },
];

/** Values a params file or a hand can put anywhere. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    64,
    65,
    1000,
    1001,
    10000,
    10001,
    16384,
    16385,
    2 ** 53,
    NaN,
    Infinity,
    -Infinity,
  ),
  fc.bigInt(),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'cpu', 'htp', 'raw', 'int8', 'person', '__proto__', 'constructor'),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }),
  fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { maxLength: 3 }),
  fc.constantFrom(null, undefined, {}, [], { value: 1 }),
);

function namesOneOf(message: string, name: string): boolean {
  return [name, ...(PARTNERS[name] ?? [])].some((n) => message.includes(n));
}

describe('parameter values: properties (fast-check)', function () {
  for (const t of TABLES) {
    it(`${t.name}: one parameter set to any value is taken or refused with a ConfigError naming it`, function () {
      const names = Object.keys(t.specs);
      propertyCheck(
        fc.property(fc.constantFrom(...names), anyValue, (name, value) => {
          try {
            t.parse({ ...t.defaults, [name]: value });
          } catch (e) {
            assert.ok(e instanceof ConfigError, `${name}=${String(value)}: threw ${String(e)}`);
            assert.ok(namesOneOf(e.message, name), `${name}=${String(value)}: "${e.message}"`);
          }
        }),
        FUZZ_MIN_RUNS,
      );
    });
  }

  it('perception: several parameters of any value at once are refused naming one of them', function () {
    const names = Object.keys(PERCEPTION_PARAMETERS);
    propertyCheck(
      fc.property(
        fc.dictionary(fc.constantFrom(...names), anyValue, { minKeys: 2, maxKeys: 5 }),
        (changes) => {
          try {
            parsePerceptionConfig({ ...PERCEPTION_DEFAULTS, ...changes });
          } catch (e) {
            assert.ok(e instanceof ConfigError, `threw ${String(e)}`);
            assert.ok(
              Object.keys(changes).some((n) => namesOneOf(e.message, n)),
              `"${e.message}" names none of ${Object.keys(changes).join(', ')}`,
            );
          }
        },
      ),
      1_000,
    );
  });
});

// ---- the ROS change gate -------------------------------------------------------------------

const TYPE = {
  PARAMETER_BOOL: 1,
  PARAMETER_INTEGER: 2,
  PARAMETER_DOUBLE: 3,
  PARAMETER_STRING: 4,
  PARAMETER_STRING_ARRAY: 9,
} as const;

interface FakeParameter {
  readonly name: string;
  readonly type: number;
  readonly value: unknown;
}

type SetResult = { successful: boolean; reason: string };

/** A node stand-in: rclnodejs' own validation accepts everything, the post-set callback is kept. */
function gatedNode(specs: Readonly<Record<string, ParameterSpec>>) {
  let values: Record<string, ParameterValue> = { ...PERCEPTION_DEFAULTS } as Record<
    string,
    ParameterValue
  >;
  let applied: ((params: FakeParameter[]) => void) | undefined;
  const node = {
    _validateParameters: (): SetResult => ({ successful: true, reason: '' }),
    addPostSetParametersCallback: (cb: (params: FakeParameter[]) => void) => {
      applied = cb;
    },
  };
  const rcl = { ParameterType: TYPE } as unknown as typeof Rclnodejs;
  gateParameterChanges(
    rcl,
    node as unknown as Rclnodejs.Node,
    specs,
    // As the perception node's gate does (src/nodes/perception/managedPerceptionNode.ts): the whole new set.
    (changes) => {
      try {
        parsePerceptionConfig({ ...values, ...changes });
        return '';
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
    (changes) => {
      values = { ...values, ...changes };
      parsePerceptionConfig(values);
    },
  );
  return {
    set(params: FakeParameter[]): SetResult {
      const r = (
        node._validateParameters as unknown as (p: FakeParameter[], d: boolean) => SetResult
      )(params, false);
      if (r.successful) applied?.(params);
      return r;
    },
  };
}

function rosTypeOf(s: ParameterSpec): keyof typeof TYPE {
  if (typeof s.default === 'boolean') return 'PARAMETER_BOOL';
  if (typeof s.default === 'string') return 'PARAMETER_STRING';
  if (Array.isArray(s.default)) return 'PARAMETER_STRING_ARRAY';
  return s.schema instanceof z.ZodNumber && s.schema.isInt
    ? 'PARAMETER_INTEGER'
    : 'PARAMETER_DOUBLE';
}

/** A value of a ROS parameter type, as rclnodejs hands it over (integers as BigInt). */
function valueOfType(type: keyof typeof TYPE): fc.Arbitrary<unknown> {
  switch (type) {
    case 'PARAMETER_BOOL':
      return fc.boolean();
    case 'PARAMETER_INTEGER':
      return fc.oneof(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: -2n, max: 20000n }),
      );
    case 'PARAMETER_DOUBLE':
      return fc.oneof(
        fc.double(),
        fc.double({ min: -1, max: 1100 }),
        fc.constantFrom(0, -0, 1, 1000, NaN, Infinity),
      );
    case 'PARAMETER_STRING':
      return fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('', 'cpu', 'htp', 'fp32', 'int8', 'compressed', 'reliable', 'coco17'),
      );
    case 'PARAMETER_STRING_ARRAY':
      return fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('person')), {
        maxLength: 4,
      });
  }
}

describe('the ROS parameter change gate: properties (fast-check)', function () {
  const specs = PERCEPTION_PARAMETERS as Readonly<Record<string, ParameterSpec>>;
  const names = Object.keys(specs);

  it('a change of the declared type is taken, or refused with a reason naming the parameter; taken values apply', function () {
    const gate = gatedNode(specs);
    propertyCheck(
      fc.property(
        fc.constantFrom(...names).chain((name) =>
          valueOfType(rosTypeOf(specs[name]!)).map((value) => ({
            name,
            type: TYPE[rosTypeOf(specs[name]!)],
            value,
          })),
        ),
        (p) => {
          const r = gate.set([p]);
          if (!r.successful)
            assert.ok(namesOneOf(r.reason, p.name), `${p.name}=${String(p.value)}: "${r.reason}"`);
          else assert.notEqual(specs[p.name]!.kind, 'fixed', `${p.name} is read-only but changed`);
        },
      ),
      // The gate is the first decoder a value set from outside (ros2 param set) meets.
      FUZZ_MIN_RUNS,
    );
  });

  it('a value of another type is refused, naming the parameter and the type it takes', function () {
    const gate = gatedNode(specs);
    const types = Object.keys(TYPE) as (keyof typeof TYPE)[];
    propertyCheck(
      fc.property(
        fc
          .constantFrom(...names)
          .chain((name) =>
            fc
              .constantFrom(...types.filter((t) => t !== rosTypeOf(specs[name]!)))
              .chain((t) => valueOfType(t).map((value) => ({ name, type: TYPE[t], value }))),
          ),
        (p) => {
          const r = gate.set([p]);
          assert.equal(r.successful, false, `${p.name} took a ${p.type}`);
          assert.match(
            r.reason,
            new RegExp(`^${p.name}: expected a \\w+ value$|^${p.name} is read-only`),
          );
        },
      ),
      2_000,
    );
  });

  it('qos_overrides.* is read-only; names the gate does not know pass to rclnodejs', function () {
    const gate = gatedNode(specs);
    propertyCheck(
      fc.property(fc.string({ maxLength: 10 }), fc.integer({ min: 1, max: 9 }), (suffix, type) => {
        const r = gate.set([{ name: `qos_overrides.${suffix}`, type, value: 1 }]);
        assert.equal(r.successful, false);
        assert.match(r.reason, /^qos_overrides\..* is read-only: set it at start$/s);
        if (!(suffix in specs))
          assert.equal(gate.set([{ name: suffix, type, value: 1 }]).successful, true);
      }),
      1_000,
    );
  });
});
