import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from './paths';

/** Every runnable file of a compiled folder: the modules that start when run as a program. */
export function entryPointsIn(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(dir, f))
    .filter((f) => fs.readFileSync(f, 'utf8').includes('require.main === module'));
}

/** The programs under `distFolder` (e.g. 'dist/src') that package.json's scripts run. */
export function scriptPrograms(distFolder: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const pattern = new RegExp(`${distFolder.replace(/\//g, '\\/')}\\/\\S+\\.js`, 'g');
  const found = Object.values(pkg.scripts).flatMap((c) => c.match(pattern) ?? []);
  return [...new Set(found)].map((f) => repoPath(...f.split('/')));
}

/**
 * `--help` answers with the usage and exit code 0 without doing the program's work. Run without
 * any ROS environment: a node, tool or benchmark that started ROS, a model or a measurement would
 * fail there (or write files), so exit 0 with a usage and nothing on stderr means it stopped at
 * the help. One mocha case per program, named relative to `base`.
 */
export function itAnswersHelp(programs: readonly string[], base: string): void {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(AMENT_|ROS_|RMW_|CMAKE_PREFIX_PATH|LD_LIBRARY_PATH|PYTHONPATH|HTP_)/.test(k))
      env[k] = v;
  }
  for (const program of programs) {
    const name = path.relative(base, program);
    it(`${name} --help: usage, exit 0, no work`, function () {
      const r = spawnSync(process.execPath, [program, '--help'], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 0, `${name}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
      // A usage says how to run the program; a program that ignored --help and did its work
      // (tables, logs) would not.
      assert.match(
        r.stdout,
        /usage:|npm run |node dist\/|htp-perception/i,
        `${name}: printed no usage:\n${r.stdout}`,
      );
      assert.doesNotMatch(r.stdout, /^wrote /m, `${name}: wrote a file`);
      assert.equal(r.stderr.trim(), '', `${name}: stderr ${r.stderr}`);
    });
  }
}
