import type { ZodError } from 'zod';

/** A parameter, YAML file or manifest that does not validate. Names the source and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function describeZodError(source: string, error: ZodError): ConfigError {
  const issues = error.issues
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  return new ConfigError(`${source}: ${issues}`);
}
