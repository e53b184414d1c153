import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PERCEPTION_PARAMETERS } from '../../../src/config/perceptionConfig';
import { repoPath } from '../../support/paths';
import { inspectLaunch, launchedNodes, yamlJson } from '../../support/launchFacts';

function installedExecutables(): string[] {
  const cmake = fs.readFileSync(repoPath('CMakeLists.txt'), 'utf8');
  const block = /set\(HTP_NODE_EXECUTABLES([^)]*)\)/.exec(cmake)?.[1] ?? '';
  return [...block.matchAll(/"([\w-]+)=/g)].map((m) => m[1]!);
}

/** Every `Topic: {Value: ...}` of an rviz config, wherever the display nests it. */
function rvizTopics(config: unknown): string[] {
  if (Array.isArray(config)) return config.flatMap(rvizTopics);
  if (!config || typeof config !== 'object') return [];
  return Object.entries(config as Record<string, unknown>).flatMap(([k, v]) => {
    const own =
      k === 'Topic' && v && typeof v === 'object' ? (v as { Value?: unknown }).Value : undefined;
    return [...(typeof own === 'string' ? [own] : []), ...rvizTopics(v)];
  });
}

/** The node-relative topics ('~/...') our node code names, read from the sources themselves. */
function relativeTopicsInCode(): Set<string> {
  const topics = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        const text = fs.readFileSync(p, 'utf8');
        for (const m of text.matchAll(/'(~\/[\w/]+)'/g)) topics.add(m[1]!);
        // A camera's outputs are named through its OutputTopics (src/ros/outputTopics.ts):
        // topics('annotated') is ~/annotated on a single-camera node.
        for (const call of text.matchAll(/\btopics\(([^)]*)\)/g)) {
          for (const m of call[1]!.matchAll(/'([\w/]+)'/g)) topics.add(`~/${m[1]!}`);
        }
        for (const m of text.matchAll(/export const \w+_TOPIC = '([\w/]+)'/g))
          topics.add(`~/${m[1]!}`);
      }
    }
  };
  for (const layer of ['nodes', 'ros']) walk(repoPath('src', layer));
  return topics;
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
/** Our parameters, and the one every ROS node has that launch files set (use_sim_time). */
const KNOWN = new Set([...Object.keys(PERCEPTION_PARAMETERS), 'use_sim_time']);

describe('launch files and config, checked statically (no launch wheels here)', () => {
  const files = fs.readdirSync(LAUNCH).filter((f) => /\.launch\.(py|xml)$/.test(f));

  it('every launch file parses and names installed executables and package files that exist', () => {
    assert.ok(files.includes('perception.launch.py') && files.includes('perception.launch.xml'));
    const installed = installedExecutables();
    for (const f of files) {
      const facts = inspectLaunch(path.join(LAUNCH, f));
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
      // Other packages' nodes are optional extras, each behind its own launch argument.
      for (const n of facts.foreign) assert.ok(n.condition, `${f}: ${n.package} always starts`);
    }
  });

  it('the XML launch file is the twin of the Python one', () => {
    const py = inspectLaunch(path.join(LAUNCH, 'perception.launch.py'));
    const xml = inspectLaunch(path.join(LAUNCH, 'perception.launch.xml'));
    assert.deepEqual(xml.executables, py.executables);
    assert.deepEqual(xml.nodes, py.nodes);
    assert.deepEqual(xml.files, py.files);
    assert.deepEqual(Object.keys(xml.arguments).sort(), Object.keys(py.arguments).sort());
    for (const [k, v] of Object.entries(py.arguments)) {
      if (!py.files.includes(v ?? '')) assert.equal(xml.arguments[k], v, k);
    }
    // The single node or the container, each with and without cameras; rviz2 if rviz (which of
    // them start for which arguments: the next test).
    assert.deepEqual(py.conditions, [
      'node_one_camera',
      'node_cameras',
      'container_one_camera',
      'container_cameras',
      'IfCondition(rviz)',
    ]);
    assert.deepEqual(
      xml.foreign.map((n) => ({ ...n, condition: /\$\(var (\w+)\)/.exec(n.condition)?.[1] })),
      py.foreign.map((n) => ({ ...n, condition: /IfCondition\((\w+)\)/.exec(n.condition)?.[1] })),
    );
  });

  it('starts one node of ours, the container only with container:=true, and hands cameras over only when it names some', () => {
    const cases: { args: Record<string, string>; executable: string; cameras: boolean }[] = [
      { args: {}, executable: 'perception_node', cameras: false },
      { args: { cameras: '[]' }, executable: 'perception_node', cameras: false },
      { args: { cameras: '[front, rear]' }, executable: 'perception_node', cameras: true },
      { args: { cameras: "['front', 'rear']" }, executable: 'perception_node', cameras: true },
      { args: { container: 'true' }, executable: 'perception_container', cameras: false },
      {
        args: { container: 'True', cameras: '[left]' },
        executable: 'perception_container',
        cameras: true,
      },
      {
        args: { container: '1', cameras: ' [] ' },
        executable: 'perception_container',
        cameras: false,
      },
      { args: { container: 'false', rviz: 'true' }, executable: 'perception_node', cameras: false },
    ];
    for (const file of ['perception.launch.py', 'perception.launch.xml']) {
      for (const c of cases) {
        const at = `${file} ${JSON.stringify(c.args)}`;
        const started = launchedNodes(path.join(LAUNCH, file), c.args);
        assert.deepEqual(
          started.map((n) => n.executable),
          [c.executable],
          at,
        );
        assert.equal(started[0]!.parameters.includes('cameras'), c.cameras, at);
        assert.ok(started[0]!.parameters.includes('use_sim_time'), at);
      }
    }
  });

  it('gives every node of ours the robot arguments: namespace, use_sim_time, large_frames, enclave', () => {
    const robotDefaults = {
      namespace: '',
      use_sim_time: 'false',
      large_frames: 'false',
      enclave: '/',
    };
    for (const f of files) {
      const facts = inspectLaunch(path.join(LAUNCH, f));
      for (const [arg, value] of Object.entries(robotDefaults))
        assert.equal(facts.arguments[arg], value, `${f}: ${arg}'s default`);
      assert.ok(facts.nodes.length > 0, f);
      for (const n of facts.nodes) {
        const where = `${f}: ${n.executable}`;
        assert.deepEqual(n.namespace, ['namespace'], `${where}: namespace`);
        assert.deepEqual(n.parameters.use_sim_time, ['use_sim_time'], `${where}: use_sim_time`);
        // The launchers read it (cmake/launcher.sh.in) and choose the Fast DDS profile variable.
        assert.deepEqual(
          n.env.HTP_PERCEPTION_LARGE_FRAMES,
          ['large_frames'],
          `${where}: large_frames`,
        );
        assert.deepEqual(n.ros_arguments, ['--enclave', 'enclave'], `${where}: enclave`);
      }
    }
    // Nothing in a launch file picks a domain, a discovery range or a DDS profile: the robot's.
    for (const f of fs.readdirSync(LAUNCH))
      assert.doesNotMatch(
        fs.readFileSync(path.join(LAUNCH, f), 'utf8'),
        /ROS_DOMAIN_ID|ROS_AUTOMATIC_DISCOVERY_RANGE|ROS_LOCALHOST_ONLY|DEFAULT_PROFILES_FILE/,
        f,
      );
  });

  it('declares the perception node a LifecycleNode (autostart kept) and takes parameter files from the install share or the user', () => {
    for (const f of ['perception.launch.py', 'perception.launch.xml']) {
      const facts = inspectLaunch(path.join(LAUNCH, f));
      const single = facts.nodes.find((n) => n.executable === 'perception_node');
      assert.equal(single?.action, 'LifecycleNode', `${f}: perception_node`);
      assert.deepEqual(single?.parameters.autostart, ['autostart'], `${f}: autostart`);
      assert.equal(facts.arguments.autostart, 'true', `${f}: autostart's default`);
      // The container hosts several lifecycle nodes named by its file: a plain process.
      assert.equal(
        facts.nodes.find((n) => n.executable === 'perception_container')?.action,
        'Node',
      );
      // params:= and pipelines:= default to the installed files and take a user's instead.
      for (const arg of ['params', 'pipelines'])
        assert.ok(
          facts.files.includes(
            facts.arguments[arg]!.replace(/^\$\(find-pkg-share htp_perception\)\//, ''),
          ),
          `${f}: ${arg}`,
        );
      assert.ok(facts.uses.includes('pipelines') && facts.uses.includes('params'), f);
    }
  });

  it('rviz:=true starts rviz2 on config/perception.rviz, which parses and shows only topics the nodes publish', () => {
    const py = inspectLaunch(path.join(LAUNCH, 'perception.launch.py'));
    assert.equal(py.arguments.rviz, 'false', 'rviz2 (not installed everywhere) only when asked');
    const rviz = py.foreign.find((n) => n.package === 'rviz2');
    assert.deepEqual(rviz?.arguments, ['-d', 'config/perception.rviz']);
    assert.equal(rviz?.condition, 'IfCondition(rviz)');

    const config = yamlJson<Record<string, unknown>>(repoPath('config', 'perception.rviz'));
    const manager = config['Visualization Manager'] as { Displays: { Class: string }[] };
    assert.ok(manager.Displays.length > 0);
    for (const d of manager.Displays)
      assert.match(d.Class, /^rviz_default_plugins\//, 'core rviz2 only');
    const topics = rvizTopics(config);
    assert.equal(topics.length, manager.Displays.length, 'every display names its topic');

    // Who publishes what: node names from the shipped config and launch defaults, the topics
    // relative to each node from the code.
    const pipelines = yamlJson<string[]>(
      repoPath('config', 'pipelines.yaml'),
      'd["perception_container"]["ros__parameters"]["pipelines"]',
    );
    const nodes = [...pipelines, py.arguments.name ?? ''];
    const relative = relativeTopicsInCode();
    assert.ok(relative.has('~/annotated'), 'the scan finds the node outputs');
    for (const topic of topics) {
      const m = /^\/([\w]+)\/([\w/]+)$/.exec(topic);
      assert.ok(m, `${topic} is not /<node>/<topic>`);
      assert.ok(
        nodes.includes(m[1]!),
        `${topic}: no node ${m[1]} in config/pipelines.yaml or the launch`,
      );
      assert.ok(relative.has(`~/${m[2]}`), `${topic}: no perception node publishes ~/${m[2]}`);
    }
    // The two views the config exists for: the detector's picture, the semantic colours.
    assert.ok(topics.includes(`/${pipelines[0]}/annotated`));
    assert.ok(topics.some((t) => t.endsWith('/segmentation/color')));
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
