import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';

/** A python3 stand-in that records each call's arguments and environment, then plays venv/pip. */
const FAKE_PYTHON = `#!/usr/bin/env bash
{ printf -- '--- %s\\n' "$*"; env; } >> "$FAKE_PYTHON_LOG"
if [ "$1" = -m ] && [ "$2" = venv ]; then
  mkdir -p "$3/bin" "$3/lib/python3.11/site-packages"
  cp "$0" "$3/bin/python"
fi
exit 0
`;

/** What a shell with scripts/env.sh sourced (Kilted wheels) hands every program it starts. */
const KILTED_SHELL = {
  PYTHONPATH:
    '/kilted/.ros/interfaces/lib/python3.11/site-packages:/kilted/.ros/venv/lib/python3.11/site-packages',
  LD_LIBRARY_PATH: '/kilted/.ros/venv/lib',
  AMENT_PREFIX_PATH: '/kilted/.ros/interfaces:/kilted/.ros/venv',
  CMAKE_PREFIX_PATH: '/kilted/.ros/venv',
  ROS_DISTRO: 'kilted',
  PYTHONHOME: '/kilted/python-home',
  VIRTUAL_ENV: '/kilted/.ros/venv',
};

/**
 * npm run test:jazzy from a shell where scripts/env.sh was sourced: the Jazzy prefix's pip saw the
 * Kilted venv on PYTHONPATH, counted numpy, empy, lark, catkin_pkg and the shared ros-* wheels as
 * installed and left them out (issue 33). scripts/jazzy/install-prefix.sh must start Python with
 * none of that shell's Python or ROS variables.
 */
describe('the Jazzy prefix install (scripts/jazzy/install-prefix.sh) from a Kilted shell', function () {
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jazzy-prefix-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs the interpreter, venv and pip with no inherited Python or ROS variables', function () {
    const fake = path.join(dir, 'python3');
    fs.writeFileSync(fake, FAKE_PYTHON, { mode: 0o755 });
    const log = path.join(dir, 'calls.log');
    const prefix = path.join(dir, 'jazzy');
    const r = spawnSync('bash', [repoPath('scripts', 'jazzy', 'install-prefix.sh')], {
      env: {
        ...process.env,
        ...KILTED_SHELL,
        HTP_PYTHON: fake,
        HTP_JAZZY_PREFIX: prefix,
        FAKE_PYTHON_LOG: log,
      },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const calls = fs
      .readFileSync(log, 'utf8')
      .split(/^--- /m)
      .filter(Boolean)
      .map((block) => {
        const [args = '', ...lines] = block.split('\n');
        const env = new Map(
          lines
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        return { args, env };
      });
    const pips = calls.filter((c) => c.args.startsWith('-m pip install'));
    assert.equal(pips.length, 2, calls.map((c) => c.args).join('\n'));
    assert.ok(
      calls.some((c) => c.args.startsWith('-m venv ')),
      'the venv is created',
    );
    for (const c of calls) {
      for (const name of Object.keys(KILTED_SHELL))
        assert.ok(!c.env.has(name), `python ${c.args}: ${name}=${c.env.get(name)} inherited`);
      assert.equal(c.env.get('PYTHONNOUSERSITE'), '1', `python ${c.args}: user site-packages`);
    }
    // The prefix's setup.bash still names only the prefix itself.
    const setup = fs.readFileSync(path.join(prefix, 'setup.bash'), 'utf8');
    assert.match(setup, new RegExp(`export AMENT_PREFIX_PATH="${prefix}\\$\\{AMENT_PREFIX_PATH`));
    assert.doesNotMatch(setup, /kilted/);
  });
});
