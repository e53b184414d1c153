import { z } from 'zod';
import { describeZodError } from '../core/configError';
import { parameterSpec as spec } from '../core/parameterSpec';
import type { ParameterSpec } from '../core/parameterSpec';
import { tableDefaults, tableSchema } from './parameterTable';

/** Parameters of pass_through; read-only: the relay is built once from them. */
export const PASS_THROUGH_PARAMETERS = {
  input_transport: spec(
    z.enum(['raw', 'compressed']),
    'raw',
    'fixed',
    'raw: image (sensor_msgs/Image); compressed: image/compressed (JPEG / PNG)',
  ),
  input_qos: spec(
    z.enum(['sensor_data', 'reliable', 'default']),
    'sensor_data',
    'fixed',
    "the input subscription's QoS profile",
  ),
  log_period_s: spec(
    z.number().min(0).max(86400),
    5.0,
    'fixed',
    'seconds between counter lines in the log (0: never)',
  ),
} as const satisfies Record<string, ParameterSpec>;

export const PASS_THROUGH_DEFAULTS = tableDefaults(PASS_THROUGH_PARAMETERS);

const schema = tableSchema(PASS_THROUGH_PARAMETERS);

export type PassThroughConfig = z.infer<typeof schema>;

export function parsePassThroughConfig(values: unknown): PassThroughConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError('pass_through parameters', r.error);
  return r.data;
}
