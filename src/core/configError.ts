import type { ZodError } from 'zod';

/** A parameter, YAML file or manifest that does not validate. Names the source and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Every issue of a failed zod parse on one line, `field.path: message; ...` (`(root)` for the
 * object itself): the one wording of validation errors, whichever error class carries it.
 */
export function formatZodIssues(error: ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

export function describeZodError(source: string, error: ZodError): ConfigError {
  return new ConfigError(`${source}: ${formatZodIssues(error)}`);
}
