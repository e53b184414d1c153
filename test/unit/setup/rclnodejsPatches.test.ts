import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

const PATCH_DIR = repoPath('scripts', 'setup', 'patches');
const RCLNODEJS = repoPath('node_modules', 'rclnodejs');

interface Plan {
  status: number | null;
  todo: string[];
  stderr: string;
}

/** scripts/setup/rclnodejs-patches.sh's plan for the sources in `pkg`. */
function plan(pkg: string, version: string, dir = PATCH_DIR): Plan {
  const r = spawnSync(
    'bash',
    [
      '-c',
      'set -euo pipefail; source "$1/scripts/lib.sh"; source "$1/scripts/setup/rclnodejs-patches.sh"; ' +
        'rclnodejs_patch_plan "$2" "$3" "$4"; for p in "${RCLNODEJS_TODO[@]}"; do basename "$p"; done',
      '_',
      repoPath(),
      pkg,
      version,
      dir,
    ],
    { encoding: 'utf8' },
  );
  return { status: r.status, todo: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

function patchTo(pkg: string, patch: string, reverse = false): void {
  const r = spawnSync('patch', ['-d', pkg, '-p1', '-s', '-f', ...(reverse ? ['-R'] : [])], {
    input: fs.readFileSync(patch),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${path.basename(patch)}: ${r.stdout}${r.stderr}`);
}

/**
 * Bootstrap step 50 never builds rclnodejs without our patches: a version with no patch set, or a
 * patch that does not apply, stops it with a message naming both (issue 33).
 */
describe('rclnodejs patch plan (scripts/setup/rclnodejs-patches.sh)', function () {
  const version = (
    JSON.parse(fs.readFileSync(path.join(RCLNODEJS, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const patches = fs
    .readdirSync(PATCH_DIR)
    .filter((f) => f.startsWith(`rclnodejs-${version}-`) && f.endsWith('.patch'))
    .sort();
  let pkg = '';

  beforeEach(function () {
    // The files the patches change, as bootstrap left them (every patch applied).
    pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'rclnodejs-patches-'));
    for (const entry of ['src', 'binding.gyp', 'types'])
      fs.cpSync(path.join(RCLNODEJS, entry), path.join(pkg, entry), { recursive: true });
  });
  afterEach(() => fs.rmSync(pkg, { recursive: true, force: true }));

  it('has a patch set for the installed rclnodejs, all applied by bootstrap', function () {
    assert.ok(patches.length > 0, `no patch for rclnodejs ${version} in ${PATCH_DIR}`);
    const p = plan(pkg, version);
    assert.equal(p.status, 0, p.stderr);
    assert.deepEqual(p.todo, []);
  });

  it('applies every patch, in name order, to pristine sources, and the rest after a partial run', function () {
    for (const f of [...patches].reverse()) patchTo(pkg, path.join(PATCH_DIR, f), true);
    assert.deepEqual(plan(pkg, version).todo, patches);
    patchTo(pkg, path.join(PATCH_DIR, patches[0]!));
    assert.deepEqual(plan(pkg, version).todo, patches.slice(1));
  });

  it('refuses a version without a patch set, naming it and the versions that have one', function () {
    const p = plan(pkg, '99.0.0');
    assert.notEqual(p.status, 0);
    assert.match(p.stderr, /rclnodejs 99\.0\.0 has no patch set in /);
    assert.match(p.stderr, new RegExp(`patch sets exist for: ${version.replace(/\./g, '\\.')}`));
    assert.match(p.stderr, /not built/);
  });

  it('refuses a patch that does not apply, naming the patch and the version', function () {
    for (const f of [...patches].reverse()) patchTo(pkg, path.join(PATCH_DIR, f), true);
    // The first patch's file changed under it (as a new rclnodejs release would).
    const first = fs.readFileSync(path.join(PATCH_DIR, patches[0]!), 'utf8');
    const target = /^\+\+\+ b\/(\S+)/m.exec(first)![1]!;
    fs.writeFileSync(path.join(pkg, target), '// rewritten upstream\n');
    const p = plan(pkg, version);
    assert.notEqual(p.status, 0);
    assert.match(
      p.stderr,
      new RegExp(
        `rclnodejs ${version.replace(/\./g, '\\.')}: patch ${patches[0]!.replace(/\./g, '\\.')} does not apply`,
      ),
    );
  });

  it('names the later patch when the earlier ones applied and it does not', function () {
    if (patches.length < 2) this.skip();
    const last = patches[patches.length - 1]!;
    const files = (name: string): string[] =>
      [...fs.readFileSync(path.join(PATCH_DIR, name), 'utf8').matchAll(/^\+\+\+ b\/(\S+)/gm)].map(
        (m) => m[1]!,
      );
    const earlier = new Set(patches.slice(0, -1).flatMap(files));
    const own = files(last).find((f) => !earlier.has(f) && fs.existsSync(path.join(pkg, f)));
    if (!own) this.skip();
    patchTo(pkg, path.join(PATCH_DIR, last), true);
    fs.writeFileSync(path.join(pkg, own), '# rewritten upstream\n');
    const p = plan(pkg, version);
    assert.notEqual(p.status, 0);
    assert.match(p.stderr, new RegExp(`patch ${last.replace(/\./g, '\\.')} does not apply`));
    assert.match(p.stderr, new RegExp(`${patches.length - 1} of the set applied already`));
  });
});
