import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

/** Every runnable file of the folder: the compiled modules that start when run as a program. */
function entryPoints(folder: string): string[] {
  const dir = repoPath('dist', 'src', folder);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(dir, f))
    .filter((f) => fs.readFileSync(f, 'utf8').includes('require.main === module'));
}

/** The programs package.json's scripts run (some benchmarks are plain scripts, no main guard). */
function scriptPrograms(): string[] {
  const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const found = Object.values(pkg.scripts).flatMap((c) => c.match(/dist\/src\/\S+\.js/g) ?? []);
  return found.map((f) => repoPath(...f.split('/')));
}

/**
 * `--help` answers with the usage and exit code 0 without doing the program's work. Run without
 * any ROS environment: a node or tool that started ROS, a model or a benchmark would fail there
 * (or write files), so exit 0 with a usage and nothing on stderr means it stopped at the help.
 */
describe('--help on every executable', function () {
  this.timeout(120_000);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(AMENT_|ROS_|RMW_|CMAKE_PREFIX_PATH|LD_LIBRARY_PATH|PYTHONPATH|HTP_)/.test(k))
      env[k] = v;
  }
  const programs = [
    ...new Set([
      ...entryPoints('nodes'),
      ...entryPoints('tools'),
      ...entryPoints('bench'),
      ...scriptPrograms(),
      repoPath('dist', 'src', 'cli', 'main.js'),
    ]),
  ];

  it('finds the entry points of nodes, tools, benchmarks and the CLI', function () {
    const names = programs.map((p) => path.basename(p));
    for (const want of ['perceptionNode.js', 'perceptionContainer.js', 'runModelsOnPhotos.js']) {
      assert.ok(names.includes(want), `${want} not found among ${names.join(', ')}`);
    }
    for (const want of ['e2eBench.js', 'headsBench.js', 'trackingBench.js', 'main.js']) {
      assert.ok(names.includes(want), `${want} not found among ${names.join(', ')}`);
    }
  });

  for (const program of programs) {
    const name = path.relative(repoPath('dist', 'src'), program);
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
});
