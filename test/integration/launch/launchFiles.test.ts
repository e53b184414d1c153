import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PERCEPTION_PARAMETERS } from '../../../src/config/perceptionConfig';
import { repoPath } from '../../support/paths';

interface LaunchFacts {
  arguments: Record<string, string | null>;
  executables: string[];
  files: string[];
  parameters: string[];
  conditions: string[];
  uses: string[];
}

function inspect(file: string): LaunchFacts {
  const r = spawnSync(
    'python3',
    [repoPath('test', 'fixtures', 'launch', 'inspect_launch.py'), file],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, `${file} does not parse: ${r.stderr}`);
  return JSON.parse(r.stdout) as LaunchFacts;
}

function installedExecutables(): string[] {
  const cmake = fs.readFileSync(repoPath('CMakeLists.txt'), 'utf8');
  const block = /set\(HTP_NODE_EXECUTABLES([^)]*)\)/.exec(cmake)?.[1] ?? '';
  return [...block.matchAll(/"([\w-]+)=/g)].map((m) => m[1]!);
}

/** Parameter names of every node section of a ROS parameters file. */
function paramsFileKeys(file: string): Record<string, string[]> {
  const r = spawnSync(
    'python3',
    [
      '-c',
      'import json,sys,yaml; d=yaml.safe_load(open(sys.argv[1])); print(json.dumps({k: list(v["ros__parameters"]) for k, v in d.items()}))',
      file,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string[]>;
}

const LAUNCH = repoPath('launch');
const KNOWN = new Set(Object.keys(PERCEPTION_PARAMETERS));

describe('launch files and config, checked statically (no launch wheels here)', () => {
  const files = fs.readdirSync(LAUNCH).filter((f) => /\.launch\.(py|xml)$/.test(f));

  it('every launch file parses and names installed executables and package files that exist', () => {
    assert.ok(files.includes('perception.launch.py') && files.includes('perception.launch.xml'));
    const installed = installedExecutables();
    for (const f of files) {
      const facts = inspect(path.join(LAUNCH, f));
      assert.ok(facts.executables.length > 0, f);
      for (const e of facts.executables)
        assert.ok(installed.includes(e), `${f}: ${e} is not installed`);
      for (const file of facts.files) assert.ok(fs.existsSync(repoPath(file)), `${f}: ${file}`);
      for (const p of facts.parameters) assert.ok(KNOWN.has(p), `${f}: unknown parameter ${p}`);
      const declared = Object.keys(facts.arguments);
      for (const u of new Set(facts.uses))
        assert.ok(declared.includes(u), `${f}: ${u} used, not declared`);
      for (const d of declared)
        assert.ok(facts.uses.includes(d), `${f}: ${d} declared, never used`);
    }
  });

  it('the XML launch file is the twin of the Python one', () => {
    const py = inspect(path.join(LAUNCH, 'perception.launch.py'));
    const xml = inspect(path.join(LAUNCH, 'perception.launch.xml'));
    assert.deepEqual(xml.executables, py.executables);
    assert.deepEqual(xml.files, py.files);
    assert.deepEqual(Object.keys(xml.arguments).sort(), Object.keys(py.arguments).sort());
    for (const [k, v] of Object.entries(py.arguments)) {
      if (!py.files.includes(v ?? '')) assert.equal(xml.arguments[k], v, k);
    }
    // Single node unless container, the container if container.
    assert.deepEqual(py.conditions, ['UnlessCondition(container)', 'IfCondition(container)']);
  });

  it('the shipped parameter files name only real parameters, and pipelines that exist', () => {
    const single = paramsFileKeys(repoPath('config', 'perception.yaml'));
    for (const keys of Object.values(single)) for (const k of keys) assert.ok(KNOWN.has(k), k);
    const pipelinesFile = paramsFileKeys(repoPath('config', 'pipelines.yaml'));
    const names = spawnSync(
      'python3',
      [
        '-c',
        'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))["perception_container"]["ros__parameters"]["pipelines"]))',
        repoPath('config', 'pipelines.yaml'),
      ],
      { encoding: 'utf8' },
    );
    const pipelines = JSON.parse(names.stdout) as string[];
    assert.deepEqual(
      Object.keys(pipelinesFile).sort(),
      ['perception_container', ...pipelines].sort(),
    );
    for (const p of pipelines)
      for (const k of pipelinesFile[p]!) assert.ok(KNOWN.has(k), `${p}.${k}`);
  });
});
