/** Bad command line or bad input file: exit code 2, one line, no stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A model name that is also a file name (`<name>.manifest.json`, `<name>.onnx`), or a UsageError. */
export function requireModelName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UsageError(`--name ${name}: use letters, digits, '.', '_' and '-' only`);
  }
}

/** What a command hands back to main: its exit code (0 ok, 1 a check failed). */
export type CommandResult = 0 | 1;
