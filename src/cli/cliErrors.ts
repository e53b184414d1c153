/** Bad command line or bad input file: exit code 2, one line, no stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a command hands back to main: its exit code (0 ok, 1 a check failed). */
export type CommandResult = 0 | 1;
