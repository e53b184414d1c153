/**
 * A ROS 2 launch file read without running it (the launch packages have no wheels here), by
 * test/fixtures/launch/inspect_launch.py: the launch test checks the files with it, the install
 * test starts installed nodes as a launch argument would.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { repoPath } from './paths';

export interface ForeignNode {
  package: string;
  executable: string;
  arguments: string[];
  condition: string;
}

/** One node of this package as a launch file starts it (which launch arguments feed what). */
export interface NodeFacts {
  executable: string;
  action: 'Node' | 'LifecycleNode';
  /** The launch arguments its namespace reads; null when the node has no namespace. */
  namespace: string[] | null;
  env: Record<string, string[]>;
  ros_arguments: string[];
  parameters: Record<string, string[]>;
}

export interface LaunchFacts {
  arguments: Record<string, string | null>;
  nodes: NodeFacts[];
  /** This package's executables. */
  executables: string[];
  /** Nodes of other packages (rviz2), started only when asked. */
  foreign: ForeignNode[];
  files: string[];
  parameters: string[];
  conditions: string[];
  uses: string[];
}

export function inspectLaunch(file: string): LaunchFacts {
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

/** One node of this package that a launch file starts, and its inline parameters' names. */
export interface LaunchedNode {
  executable: string;
  parameters: string[];
}

/**
 * The nodes of this package a launch file starts for these launch arguments (the rest at their
 * defaults), by test/fixtures/launch/launch_conditions.py: its conditions evaluated as launch does.
 */
export function launchedNodes(file: string, args: Record<string, string>): LaunchedNode[] {
  const r = spawnSync(
    'python3',
    [repoPath('test', 'fixtures', 'launch', 'launch_conditions.py'), file, JSON.stringify(args)],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, `${file} with ${JSON.stringify(args)}: ${r.stderr}`);
  return JSON.parse(r.stdout) as LaunchedNode[];
}

/** A YAML file (or `expression` of it, `d` being the file) as JSON, read by the ROS' Python. */
export function yamlJson<T>(file: string, expression = 'd'): T {
  const r = spawnSync(
    'python3',
    [
      '-c',
      `import json,sys,yaml; d=yaml.safe_load(open(sys.argv[1])); print(json.dumps(${expression}))`,
      file,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, `${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
