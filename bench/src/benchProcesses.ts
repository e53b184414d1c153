import { FRAME_NODE_FLAGS, packagePath } from '../../src/index';
import { LineProcess } from './lineProcess';

/**
 * Extra Node.js flags for the measured node or container (HTP_BENCH_NODE_FLAGS, e.g.
 * `--cpu-prof --cpu-prof-dir=out/prof`): how the profiles behind bench/results/ were taken.
 * NODE_OPTIONS cannot carry --cpu-prof, and would profile every process of the run.
 */
function profilingFlags(): string[] {
  return (process.env.HTP_BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
}

/**
 * A perception node process for a benchmark, started as its launcher starts it
 * (FRAME_NODE_FLAGS): `__node:=name`, `image:=topic`, `-p` parameters.
 */
export function startBenchNode(
  name: string,
  topic: string,
  parameters: Readonly<Record<string, string>>,
): LineProcess {
  const args = [
    ...FRAME_NODE_FLAGS,
    ...profilingFlags(),
    packagePath('dist', 'src', 'nodes', 'perceptionNode.js'),
    '--ros-args',
    '-r',
    `__node:=${name}`,
    '-r',
    `image:=${topic}`,
  ];
  for (const [k, v] of Object.entries(parameters)) args.push('-p', `${k}:=${v}`);
  return new LineProcess('perception node', 'node', args, 'ignore');
}

/** A perception_container from a ROS parameters file, its camera remapped to `topic`. */
export function startBenchContainer(paramsFile: string, topic: string): LineProcess {
  return new LineProcess(
    'perception container',
    'node',
    [
      ...FRAME_NODE_FLAGS,
      ...profilingFlags(),
      packagePath('dist', 'src', 'nodes', 'perceptionContainer.js'),
      '--ros-args',
      '--params-file',
      paramsFile,
      '-r',
      `image:=${topic}`,
    ],
    'ignore',
  );
}

/** bench:e2e's floor: the bare rclnodejs probe (bench/src/floorProbe.ts) on `topic`. */
export function startFloorProbe(name: string, topic: string): LineProcess {
  return new LineProcess(
    'floor probe',
    'node',
    [packagePath('dist', 'bench', 'src', 'floorProbe.js'), '--topic', topic, '--name', name],
    'ignore',
  );
}

/** The rclpy camera stand-in (tools/ros/frame_publisher.py) publishing packed rgb8 files. */
export function startFramePublisher(
  topic: string,
  width: number,
  height: number,
  frames: readonly string[],
  options: { readonly noWait?: boolean } = {},
): LineProcess {
  return new LineProcess('frame publisher', 'python3', [
    packagePath('tools', 'ros', 'frame_publisher.py'),
    '--topic',
    topic,
    '--width',
    String(width),
    '--height',
    String(height),
    ...(options.noWait ? ['--no-wait'] : []),
    ...frames,
  ]);
}
