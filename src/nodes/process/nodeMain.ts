/** Shared command-line handling of our node executables: `--help` works without ROS. */
export function wantsHelp(argv: readonly string[]): boolean {
  const ours = argv.slice(2, argv.includes('--ros-args') ? argv.indexOf('--ros-args') : undefined);
  return ours.includes('--help') || ours.includes('-h');
}

export function printHelp(
  name: string,
  summary: string,
  params: Readonly<Record<string, unknown>>,
  topics: string[],
  descriptions: Readonly<Record<string, string>> = {},
): void {
  const lines = [
    `${name}: ${summary}`,
    '',
    `usage: ${name} [--ros-args -r image:=/camera/image_raw -p name:=value ...]`,
    '',
    'topics:',
    ...topics.map((t) => `  ${t}`),
    '',
    'parameters (default):',
    ...Object.entries(params).map(([k, v]) => {
      const d = descriptions[k];
      return `  ${k} (${JSON.stringify(v)})${d ? `\n      ${d}` : ''}`;
    }),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
