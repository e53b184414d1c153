import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

const DEPCRUISE = repoPath('node_modules', '.bin', 'depcruise');
const CONFIG = repoPath('.dependency-cruiser.cjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err-long'], {
    cwd,
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A small src/ tree in a temp folder, cruised with the project's rules. */
function plantedTree(files: Readonly<Record<string, string>>): {
  status: number | null;
  out: string;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true }, include: ['src'] }),
    );
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return cruise(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('layer rules (docs/DESIGN.md table as dependency-cruiser rules)', function () {
  this.timeout(60_000);

  it('the project itself has no upward import and no cycle', () => {
    const r = cruise(repoPath());
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /no dependency violations found/);
  });

  it('fails an upward import and rclnodejs in the heads, naming the rule and both files', () => {
    const r = plantedTree({
      'src/core/frame.ts': 'export const W = 1;\n',
      'src/ros/hub.ts': 'export const HUB = 2;\n',
      'src/heads/fine.ts': "import { W } from '../core/frame';\nexport const F = W;\n",
      'src/heads/upward.ts': "import { HUB } from '../ros/hub';\nexport const U = HUB;\n",
      'src/heads/ros.ts': "import type * as R from 'rclnodejs';\nexport type N = R.Node;\n",
    });
    assert.notEqual(r.status, 0, r.out);
    assert.match(r.out, /error layer-heads: src\/heads\/upward\.ts → src\/ros\/hub\.ts/);
    assert.match(r.out, /error layer-heads: src\/heads\/ros\.ts → \S*rclnodejs/);
    assert.match(r.out, /src\/heads\/ may import only core/);
    assert.doesNotMatch(r.out, /fine\.ts/);
  });

  it('fails modules that import each other, even inside one layer', () => {
    const r = plantedTree({
      'src/engine/a.ts': "import { B } from './b';\nexport const A = 1;\nexport const AB = B;\n",
      'src/engine/b.ts': "import { A } from './a';\nexport const B = A;\n",
    });
    assert.notEqual(r.status, 0, r.out);
    assert.match(
      r.out,
      /error no-circular: src\/engine\/a\.ts →\s+src\/engine\/b\.ts →\s+src\/engine\/a\.ts/,
    );
  });

  it('allows what a row lists: the nodes may use rclnodejs and every layer below them', () => {
    const r = plantedTree({
      'src/ros/hub.ts': "import type * as R from 'rclnodejs';\nexport type H = R.Node;\n",
      'src/pipeline/p.ts': 'export const P = 1;\n',
      'src/nodes/n.ts':
        "import type { H } from '../ros/hub';\nimport { P } from '../pipeline/p';\n" +
        'export const N: H | number = P;\n',
    });
    assert.equal(r.status, 0, r.out);
  });
});
