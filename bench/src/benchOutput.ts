import * as fs from 'node:fs';

/** Writes a benchmark's figures to `file` as indented JSON and says where. */
export function writeBenchJson(file: string, figures: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

/** Runs a benchmark's main: a failure prints its message alone and exits with status 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
