import { z } from 'zod';
import { describeZodError } from '../core/configError';

export const PASS_THROUGH_DEFAULTS = {
  input_transport: 'raw',
  input_qos: 'sensor_data',
  log_period_s: 5.0,
};

const schema = z.object({
  input_transport: z.enum(['raw', 'compressed']),
  input_qos: z.enum(['sensor_data', 'reliable', 'default']),
  log_period_s: z.number().min(0),
});

export type PassThroughConfig = z.infer<typeof schema>;

export function parsePassThroughConfig(values: unknown): PassThroughConfig {
  const r = schema.safeParse(values);
  if (!r.success) throw describeZodError('pass_through parameters', r.error);
  return r.data;
}
