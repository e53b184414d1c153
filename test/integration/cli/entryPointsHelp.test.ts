import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { entryPointsIn, itAnswersHelp, scriptPrograms } from '../../support/entryPointHelp';
import { repoPath } from '../../support/paths';

// The benchmarks' programs answer --help in their own workspace (bench/test/integration).
describe('--help on every executable', function () {
  this.timeout(120_000);
  const programs = [
    ...new Set([
      ...entryPointsIn(repoPath('dist', 'src', 'nodes')),
      ...entryPointsIn(repoPath('dist', 'src', 'tools')),
      ...scriptPrograms('dist/src'),
      repoPath('dist', 'src', 'cli', 'main.js'),
    ]),
  ];

  it('finds the entry points of nodes, tools and the CLI', function () {
    const names = programs.map((p) => path.basename(p));
    for (const want of [
      'perceptionNode.js',
      'perceptionContainer.js',
      'runModelsOnPhotos.js',
      'main.js',
    ]) {
      assert.ok(names.includes(want), `${want} not found among ${names.join(', ')}`);
    }
  });

  itAnswersHelp(programs, repoPath('dist', 'src'));
});
