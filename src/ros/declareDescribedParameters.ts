import type * as Rclnodejs from 'rclnodejs';
import { z } from 'zod';
import type { ParameterSpec, ParameterValue } from '../core/parameterSpec';

type RosParameterType = 'bool' | 'integer' | 'double' | 'string' | 'string_array';

function rosType(s: ParameterSpec): RosParameterType {
  if (typeof s.default === 'boolean') return 'bool';
  if (typeof s.default === 'string') return 'string';
  if (Array.isArray(s.default)) return 'string_array';
  return s.schema instanceof z.ZodNumber && s.schema.isInt ? 'integer' : 'double';
}

function typeCode(rcl: typeof Rclnodejs, t: RosParameterType): Rclnodejs.ParameterType {
  switch (t) {
    case 'bool':
      return rcl.ParameterType.PARAMETER_BOOL;
    case 'integer':
      return rcl.ParameterType.PARAMETER_INTEGER;
    case 'double':
      return rcl.ParameterType.PARAMETER_DOUBLE;
    case 'string':
      return rcl.ParameterType.PARAMETER_STRING;
    case 'string_array':
      return rcl.ParameterType.PARAMETER_STRING_ARRAY;
  }
}

function describe(s: ParameterSpec): string {
  const options = s.schema instanceof z.ZodEnum ? ` (one of: ${s.schema.options.join(', ')})` : '';
  const when =
    s.kind === 'frame'
      ? 'applies from the next frame'
      : s.kind === 'session'
        ? 'set while not active; applies at the next configure'
        : s.kind === 'unconfigured'
          ? 'set only while unconfigured (cleanup first); applies at the next configure'
          : 'read-only';
  return `${s.description}${options}; ${when}`;
}

function range(
  rcl: typeof Rclnodejs,
  s: ParameterSpec,
  t: RosParameterType,
): Rclnodejs.Range | undefined {
  if (!(s.schema instanceof z.ZodNumber)) return undefined;
  const { minValue, maxValue } = s.schema;
  if (minValue === null || maxValue === null) return undefined;
  // Step 0: any value inside the range (ROS' convention for a continuous range).
  return t === 'integer'
    ? new rcl.IntegerRange(BigInt(minValue), BigInt(maxValue), 1n)
    : new rcl.FloatingPointRange(minValue, maxValue, 0);
}

/**
 * rclnodejs 2.2's ParameterDescriptor.toMessage() looks for the range under a field it never sets
 * (`_rangeConstraint`, while the constructor stores `_range`), so describe_parameters would answer
 * without one. Its own range check works; only the message is mended, on this descriptor.
 */
function publishRange(d: Rclnodejs.ParameterDescriptor, r: Rclnodejs.Range, t: RosParameterType) {
  const base = d.toMessage.bind(d);
  const bounds = r as unknown as { fromValue: number | bigint; toValue: number | bigint };
  const field =
    t === 'integer'
      ? {
          integer_range: [
            { from_value: BigInt(bounds.fromValue), to_value: BigInt(bounds.toValue), step: 1n },
          ],
        }
      : {
          floating_point_range: [
            { from_value: Number(bounds.fromValue), to_value: Number(bounds.toValue), step: 0 },
          ],
        };
  (d as unknown as { toMessage: () => object }).toMessage = () => ({ ...base(), ...field });
}

function plain(value: unknown): ParameterValue {
  return typeof value === 'bigint' ? Number(value) : (value as ParameterValue);
}

/**
 * Declares each parameter of `specs` with a descriptor (description, range, read-only), so that
 * `ros2 param describe` and rqt show what a value means and where it may go, and returns the values
 * (defaults overridden by params files and `--ros-args -p`) as plain JS for zod.
 */
export function declareDescribedParameters(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  specs: Readonly<Record<string, ParameterSpec>>,
): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, s] of Object.entries(specs)) {
    const t = rosType(s);
    const code = typeCode(rcl, t);
    const value = t === 'integer' ? BigInt(s.default as number) : s.default;
    const r = range(rcl, s, t);
    const descriptor = new rcl.ParameterDescriptor(name, code, describe(s), s.kind === 'fixed', r);
    if (r) publishRange(descriptor, r, t);
    node.declareParameter(new rcl.Parameter(name, code, value), descriptor);
    out[name] = plain(node.getParameter(name).value);
  }
  return out;
}

/** Publisher QoS overrides (publisherQos.ts): read-only, like rclcpp's. */
const QOS_OVERRIDE_PREFIX = 'qos_overrides.';

/** Decides on a set of parameter changes: a reason to refuse them, or '' to accept. */
export type ParameterGate = (changes: Readonly<Record<string, ParameterValue>>) => string;

/**
 * Puts `gate` in front of every later parameter change (services, `ros2 param set`), and
 * `apply` behind the accepted ones. The gate runs before rclnodejs' own descriptor check, whose
 * refusal reasons are not meant for people ("Parameter x does not  readonly"): type, read-only and
 * range are checked here first, so a refusal names the parameter and what it accepts.
 */
export function gateParameterChanges(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  specs: Readonly<Record<string, ParameterSpec>>,
  gate: ParameterGate,
  apply: (changes: Readonly<Record<string, ParameterValue>>) => void,
): void {
  type Validate = (params: Rclnodejs.Parameter[], declaring?: boolean) => SetResult;
  interface SetResult {
    successful: boolean;
    reason: string;
  }
  const target = node as unknown as { _validateParameters: Validate };
  const rclnodejsValidate = target._validateParameters.bind(node);
  target._validateParameters = (params, declaring) => {
    if (!declaring) {
      const changes: Record<string, ParameterValue> = {};
      for (const p of params) {
        if (p.name.startsWith(QOS_OVERRIDE_PREFIX)) {
          return { successful: false, reason: `${p.name} is read-only: set it at start` };
        }
        const s = specs[p.name];
        if (!s) continue;
        const want = typeCode(rcl, rosType(s));
        if (p.type !== want) {
          return { successful: false, reason: `${p.name}: expected a ${rosType(s)} value` };
        }
        if (s.kind === 'fixed') {
          return { successful: false, reason: `${p.name} is read-only: set it at start` };
        }
        changes[p.name] = plain(p.value);
      }
      const reason = gate(changes);
      if (reason) return { successful: false, reason };
    }
    return rclnodejsValidate(params, declaring);
  };
  node.addPostSetParametersCallback((params: Rclnodejs.Parameter[]) => {
    const changes: Record<string, ParameterValue> = {};
    for (const p of params) if (specs[p.name]) changes[p.name] = plain(p.value);
    if (Object.keys(changes).length > 0) apply(changes);
  });
}

/** The node's current values of `names`, as plain JS. */
export function parameterValues(
  node: Rclnodejs.Node,
  names: readonly string[],
): Record<string, ParameterValue> {
  return Object.fromEntries(names.map((n) => [n, plain(node.getParameter(n).value)]));
}
