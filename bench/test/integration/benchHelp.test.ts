import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { entryPointsIn, itAnswersHelp, scriptPrograms } from '../../../test/support/entryPointHelp';
import { repoPath } from '../../../test/support/paths';

describe('--help on every benchmark', function () {
  this.timeout(120_000);
  const programs = [
    ...new Set([
      ...entryPointsIn(repoPath('dist', 'bench', 'src')),
      ...scriptPrograms('dist/bench/src'),
    ]),
  ];

  it('finds every npm run bench:* program and the benchmarks with a main', function () {
    const names = programs.map((p) => path.basename(p));
    for (const want of ['e2eBench.js', 'headsBench.js', 'trackingBench.js', 'soakBench.js']) {
      assert.ok(names.includes(want), `${want} not found among ${names.join(', ')}`);
    }
    // Every npm run bench:* script runs one of them (a moved file fails here, not on a user).
    const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const benchScripts = Object.keys(pkg.scripts).filter((k) => k.startsWith('bench:'));
    assert.ok(benchScripts.length >= 15, `bench scripts: ${benchScripts.join(', ')}`);
    for (const k of benchScripts) {
      const m = /dist\/bench\/src\/(\S+\.js)/.exec(pkg.scripts[k]!);
      assert.ok(m, `${k} does not run a program of dist/bench/src: ${pkg.scripts[k]}`);
      assert.ok(
        fs.existsSync(repoPath('dist', 'bench', 'src', m[1]!)),
        `${k}: ${m[1]} not compiled`,
      );
    }
  });

  itAnswersHelp(programs, repoPath('dist', 'bench', 'src'));
});
