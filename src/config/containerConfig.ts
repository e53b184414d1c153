import { z } from 'zod';
import { describeZodError } from '../core/configError';
import { parameterSpec as spec } from '../core/parameterSpec';
import type { ParameterSpec } from '../core/parameterSpec';
import { tableDefaults, tableSchema } from './parameterTable';

/** Parameters of perception_container itself (each pipeline has the perception parameters). */
export const CONTAINER_PARAMETERS = {
  pipelines: spec(
    z
      .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a node name (letters, digits, _)'))
      .min(1, 'name at least one pipeline')
      .refine((a) => new Set(a).size === a.length, 'pipeline names must be unique'),
    [] as string[],
    'fixed',
    'node names of the pipelines, in start order; each takes its own parameters',
  ),
} as const satisfies Record<string, ParameterSpec>;

export const CONTAINER_DEFAULTS = tableDefaults(CONTAINER_PARAMETERS);

const schema = tableSchema(CONTAINER_PARAMETERS);

export type ContainerConfig = z.infer<typeof schema>;

export function parseContainerConfig(values: unknown): ContainerConfig {
  const r = schema.safeParse(values);
  if (!r.success)
    throw describeZodError('perception_container parameters (--params-file)', r.error);
  return r.data;
}
