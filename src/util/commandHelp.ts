/**
 * `--help` / `-h` for the command-line entry points: prints the usage and tells the caller to stop
 * before any work (no ROS, no model, no file written).
 */
export function printedHelp(argv: readonly string[], usage: string): boolean {
  if (!argv.includes('--help') && !argv.includes('-h')) return false;
  process.stdout.write(`${usage.trim()}\n`);
  return true;
}
