import type * as Rclnodejs from 'rclnodejs';
import { z } from 'zod';
import { ConfigError } from '../core/configError';

/** The policies of an output publisher a user may override, in rmw's own words. */
export interface OutputQos {
  readonly reliability: 'reliable' | 'best_effort' | 'system_default';
  readonly durability: 'volatile' | 'transient_local' | 'system_default';
  readonly history: 'keep_last' | 'keep_all' | 'system_default';
  /** Queue length for keep_last (ignored by keep_all). */
  readonly depth: number;
}

/*
 * Outputs are reliable with a shallow queue (REP-2003's advice for publishers): a reliable writer
 * matches every subscriber, reliable ones (ros2 topic echo, rviz2) and best-effort ones (sensor-data
 * QoS) alike; keep-last means a slow reader loses old samples instead of slowing the node.
 */

/** Result messages (detections, poses, diagnostics): small, a few kept over a short dropout. */
export const RESULT_QOS: OutputQos = {
  reliability: 'reliable',
  durability: 'volatile',
  history: 'keep_last',
  depth: 5,
};

/** Pictures (label images, annotated streams): large, only the newest matters. */
export const IMAGE_QOS: OutputQos = { ...RESULT_QOS, depth: 1 };

/**
 * Video: every access unit matters (a lost P-frame spoils the picture until the next IDR), so a
 * second of them may wait for a slow reader.
 */
export const VIDEO_QOS: OutputQos = { ...RESULT_QOS, depth: 30 };

/** Published once per configure and kept for late subscribers (LabelInfo). */
export const LATCHED_QOS: OutputQos = { ...RESULT_QOS, durability: 'transient_local', depth: 1 };

const POLICIES = {
  reliability: z.enum(['reliable', 'best_effort', 'system_default']),
  durability: z.enum(['volatile', 'transient_local', 'system_default']),
  history: z.enum(['keep_last', 'keep_all', 'system_default']),
  depth: z.number().int().min(1).max(10000),
} as const;

type Policy = keyof typeof POLICIES;
const POLICY_NAMES = Object.keys(POLICIES) as Policy[];

/**
 * rclcpp's name of a publisher QoS override: `qos_overrides.<fully qualified topic>.publisher.<policy>`
 * (e.g. `qos_overrides./detector/annotated.publisher.reliability`).
 */
export function qosOverrideName(topic: string, policy: Policy): string {
  return `qos_overrides.${topic}.publisher.${policy}`;
}

/**
 * The publisher QoS after the overrides in `values` (parameter name -> value, as the node holds
 * them). A bad value is refused with the parameter's name and what it accepts.
 */
export function applyQosOverrides(
  topic: string,
  defaults: OutputQos,
  values: Readonly<Record<string, unknown>>,
): OutputQos {
  const out: Record<string, unknown> = { ...defaults };
  for (const policy of POLICY_NAMES) {
    const name = qosOverrideName(topic, policy);
    if (!(name in values)) continue;
    const raw = values[name];
    const value = typeof raw === 'bigint' ? Number(raw) : raw;
    const r = POLICIES[policy].safeParse(value);
    if (!r.success) {
      const accepts =
        policy === 'depth'
          ? 'an integer from 1 to 10000'
          : `one of ${(POLICIES[policy] as z.ZodEnum).options.join(', ')}`;
      throw new ConfigError(`${name}: got ${JSON.stringify(value)}, expected ${accepts}`);
    }
    out[policy] = r.data;
  }
  return out as unknown as OutputQos;
}

/** The rclnodejs profile of `q`. */
export function toRclQos(rcl: typeof Rclnodejs, q: OutputQos): Rclnodejs.QoS {
  const { QoS } = rcl;
  const reliability = {
    reliable: QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
    best_effort: QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
    system_default: QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_SYSTEM_DEFAULT,
  }[q.reliability];
  const durability = {
    volatile: QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
    transient_local: QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL,
    system_default: QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_SYSTEM_DEFAULT,
  }[q.durability];
  const history = {
    keep_last: QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    keep_all: QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_ALL,
    system_default: QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_SYSTEM_DEFAULT,
  }[q.history];
  return new QoS(history, q.depth, reliability, durability);
}

/**
 * Declares the read-only override parameters of one publisher (rclcpp declares them when a
 * publisher opts in; all our outputs do), defaulted to `defaults`, and returns the QoS they give.
 * Declared once per node and topic: a second configure reads the values the first declared.
 */
export function declarePublisherQos(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  topic: string,
  defaults: OutputQos,
): OutputQos {
  const values: Record<string, unknown> = {};
  for (const policy of POLICY_NAMES) {
    const name = qosOverrideName(topic, policy);
    if (!node.hasParameter(name)) {
      const isDepth = policy === 'depth';
      const type = isDepth
        ? rcl.ParameterType.PARAMETER_INTEGER
        : rcl.ParameterType.PARAMETER_STRING;
      const value = isDepth ? BigInt(defaults.depth) : defaults[policy];
      // rclcpp's wording, so `ros2 param describe` reads the same as for a C++ node.
      const descriptor = new rcl.ParameterDescriptor(
        name,
        type,
        `qos policy {${policy}} for publisher {${topic}}`,
        true,
      );
      try {
        node.declareParameter(new rcl.Parameter(name, type, value), descriptor);
      } catch (e) {
        // A value of the wrong type from a params file or the command line.
        throw new ConfigError(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    values[name] = node.getParameter(name).value;
  }
  return applyQosOverrides(topic, defaults, values);
}

/**
 * Every output publisher of our nodes is made here: its topic resolved the way rclcpp names the
 * override parameters (namespace, `~`, remapping), its QoS from `defaults` and the overrides.
 */
export function createOutputPublisher<T extends Rclnodejs.MessageTypeClassName>(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  type: T,
  topic: string,
  defaults: OutputQos,
): Rclnodejs.Publisher<T> {
  const resolved = node.resolveTopicName(topic);
  const qos = declarePublisherQos(rcl, node, resolved, defaults);
  return node.createPublisher(type, topic, { qos: toRclQos(rcl, qos) });
}
