/**
 * npm run bench:depth [-- --iterations 2000 --seconds 20 --rate 30 --json out.json]
 *
 * What `depth: true` adds per frame at 640x480, two ways:
 *  - stage work, in this process: pairing aside, what the node's `depth` stage does for a frame
 *    with 20 detections and for one with 5 poses (17 keypoints each) over a synthetic depth image
 *    (people at 2 m before a wall at 4 m): place in space, build the messages, encode the CDR;
 *    the markers (only built while someone subscribes) apart. p50 / p95 over --iterations frames.
 *  - in the nodes, over DDS: a perception node with the HTP stand-in detector holding 20 people,
 *    and a container whose pose stand-in (on a 5-person stand-in detector) places 5 poses, both
 *    with depth: true, fed at --rate Hz for --seconds by tools/ros/depth_camera.py (colour, depth
 *    and CameraInfo with one stamp); their `depth` stage p50 / p95 from /diagnostics.
 * Prints a table with the CPU model and writes JSON (default bench/results/figures/depth.json).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import {
  COCO17,
  CameraModel,
  DepthImage,
  NO_STAGE_TIMINGS,
  detection3DArray,
  encodeDetection3DArray,
  encodePersonPose3DArray,
  formatTable,
  loadRclnodejs,
  packagePath,
  percentile,
  personPose3DArray,
  placeResult,
  printedHelp,
  runMain,
  spatialMarkers,
  type PipelineResult,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import {
  writeStandinManifest,
  htpStandinModelBytes,
  htpStandinPoseBytes,
  StandinPerson,
  STANDIN_PEOPLE,
} from './htpStandinModel';
import { LineProcess } from './lineProcess';

const USAGE = `npm run bench:depth [-- --iterations 2000 --seconds 20 --rate 30 --json out.json]

What depth: true adds per frame at 640x480: the depth stage's work in this process (20
detections; 5 poses of 17 keypoints) over a synthetic depth image, and the depth stage of real
nodes over DDS (HTP stand-in detector with 20 people; a container placing 5 poses), fed by
tools/ros/depth_camera.py at --rate Hz for --seconds. Table with the CPU model, JSON
(default bench/results/figures/depth.json).`;

const W = 640;
const H = 480;
const CAMERA = CameraModel.fromCameraInfo({
  width: W,
  height: H,
  distortionModel: 'plumb_bob',
  d: [0, 0, 0, 0, 0],
  k: [500, 0, 320, 0, 500, 240, 0, 0, 1],
});
const OPTIONS = { range: { min: 0.1, max: 10 }, keypointMinScore: 0.5 };
const HEADER = { stamp: { sec: 1, nanosec: 2 }, frameId: 'camera_optical_frame' };

/** 20 upright people in a 4 x 5 grid of the 640x640 letterboxed input (rows 80..560 are the frame). */
const TWENTY: readonly StandinPerson[] = Array.from({ length: 20 }, (_, i) => ({
  cx: 80 + (i % 5) * 120,
  cy: 140 + Math.floor(i / 5) * 110,
  w: 80,
  h: 90,
  score: 0.9 - i * 0.01,
}));

/** People (their source-pixel boxes) at 2 m, everything else a wall at 4 m: 16UC1. */
function sceneDepth(people: readonly StandinPerson[]): Buffer {
  const buf = Buffer.alloc(W * H * 2);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = people.some(
        (p) => Math.abs(x - p.cx) < p.w / 2 && Math.abs(y + 80 - p.cy) < p.h / 2,
      );
      buf.writeUInt16LE(inside ? 2000 : 4000, (y * W + x) * 2);
    }
  }
  return buf;
}

const box = (p: StandinPerson) => ({
  x1: p.cx - p.w / 2,
  y1: p.cy - 80 - p.h / 2,
  x2: p.cx + p.w / 2,
  y2: p.cy - 80 + p.h / 2,
});

interface StageFigures {
  readonly case: string;
  readonly place_build_encode_ms_p50: number;
  readonly place_build_encode_ms_p95: number;
  readonly markers_ms_p50: number;
}

function timeStage(
  name: string,
  result: PipelineResult,
  depth: DepthImage,
  n: number,
): StageFigures {
  const work: number[] = [];
  const markers: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const placed = placeResult(result, W, H, depth, CAMERA, OPTIONS);
    const det = detection3DArray(HEADER, placed.detections);
    encodeDetection3DArray(det);
    const poses =
      result.task === 'pose'
        ? personPose3DArray(HEADER, placed.poses, result.skeleton.name)
        : undefined;
    if (poses) encodePersonPose3DArray(poses);
    const t1 = performance.now();
    spatialMarkers(
      det,
      poses,
      { classNames: ['person'], skeleton: [[0, 1]], lifetimeS: 0.5, ns: 'b' },
      false,
    );
    markers.push(performance.now() - t1);
    work.push(t1 - t0);
  }
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return {
    case: name,
    place_build_encode_ms_p50: r(percentile(work, 50)),
    place_build_encode_ms_p95: r(percentile(work, 95)),
    markers_ms_p50: r(percentile(markers, 50)),
  };
}

function stageWork(iterations: number): StageFigures[] {
  const depth = new DepthImage({
    width: W,
    height: H,
    step: W * 2,
    encoding: '16UC1',
    isBigEndian: false,
    data: sceneDepth(TWENTY),
  });
  const detections = TWENTY.map((p) => ({ box: box(p), classId: 0, score: p.score }));
  const poses = TWENTY.slice(0, 5).map((p) => {
    const b = box(p);
    return {
      box: b,
      classId: 0,
      score: p.score,
      keypoints: Array.from({ length: 17 }, (_, k) => ({
        x: (b.x1 + b.x2) / 2 + (k % 2 ? 10 : -10),
        y: b.y1 + ((k + 1) * (b.y2 - b.y1)) / 18,
        score: 0.9,
      })),
    };
  });
  return [
    timeStage(
      '20 detections',
      { task: 'detect', detections, timings: NO_STAGE_TIMINGS },
      depth,
      iterations,
    ),
    timeStage(
      '5 poses (17 keypoints)',
      { task: 'pose', poses, skeleton: COCO17, timings: NO_STAGE_TIMINGS },
      depth,
      iterations,
    ),
  ];
}

interface NodeFigures {
  readonly node: string;
  readonly case: string;
  readonly depth_ms_p50: number;
  readonly depth_ms_p95: number;
  readonly frames_with_depth: number;
}

/** The `depth` stage of running nodes, from their diagnostics, after --seconds of frames. */
async function inNodes(seconds: number, rate: number, tmp: string): Promise<NodeFigures[]> {
  const detector = packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
  const hrnet = packagePath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json');
  const twenty = writeStandinManifest(
    detector,
    tmp,
    'htp-standin-20',
    htpStandinModelBytes(TWENTY),
  );
  const five = writeStandinManifest(
    detector,
    tmp,
    'htp-standin',
    htpStandinModelBytes(STANDIN_PEOPLE),
  );
  const pose = writeStandinManifest(hrnet, tmp, 'htp-standin-pose', htpStandinPoseBytes(), {
    format: 'heatmaps',
    heatmaps: { name: 'heatmaps', dims: [1, 17, 64, 48], dtype: 'float32', layout: 'NCHW' },
  });
  const remap = [
    '-r',
    'image:=/db/image_raw',
    '-r',
    'depth:=/db/depth',
    '-r',
    'camera_info:=/db/camera_info',
  ];
  const params = path.join(tmp, 'pipelines.yaml');
  fs.writeFileSync(
    params,
    [
      'perception_container:',
      '  ros__parameters: {pipelines: [db_det5, db_pose]}',
      'db_det5:',
      `  ros__parameters: {model: "${five}", precision: int8, threads: 1}`,
      'db_pose:',
      `  ros__parameters: {model: "${pose}", precision: int8, threads: 1, person_source: db_det5, person_classes: [Normal, Fall], depth: true}`,
      '',
    ].join('\n'),
  );
  const colour = path.join(tmp, 'colour.rgb');
  fs.writeFileSync(colour, Buffer.alloc(W * H * 3, 90));
  const depthFile = path.join(tmp, 'depth.u16');
  fs.writeFileSync(depthFile, sceneDepth(TWENTY));
  const node = packagePath('dist', 'src', 'nodes', 'perceptionNode.js');
  const container = packagePath('dist', 'src', 'nodes', 'perceptionContainer.js');
  const procs = [
    new LineProcess(
      'detector',
      'node',
      [
        node,
        '--ros-args',
        '-r',
        '__node:=db_det20',
        ...remap,
        '-p',
        `model:=${twenty}`,
        '-p',
        'precision:=int8',
        '-p',
        'threads:=1',
        '-p',
        'depth:=true',
      ],
      'ignore',
    ),
    new LineProcess(
      'container',
      'node',
      [container, '--ros-args', '--params-file', params, ...remap],
      'ignore',
    ),
  ];
  const rcl = loadRclnodejs();
  await rcl.init();
  const watcher = new rcl.Node('depth_bench');
  const latest = new Map<string, Map<string, string>>();
  watcher.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
    for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
      latest.set(
        s.hardware_id.replace(/^\//, ''),
        new Map(s.values.map((kv) => [kv.key, kv.value])),
      );
    }
  });
  watcher.spin(100);
  let camera: LineProcess | undefined;
  try {
    for (const p of procs) await p.printed(/nodes by provider/, 120_000);
    camera = new LineProcess(
      'depth camera',
      'python3',
      [
        packagePath('tools', 'ros', 'depth_camera.py'),
        ...['--ns', '/db', '--colour', colour, '--width', String(W), '--height', String(H)],
        ...[
          '--depth',
          depthFile,
          '--depth-encoding',
          '16UC1',
          '--depth-width',
          String(W),
          '--depth-height',
          String(H),
        ],
        ...['--rate', String(rate)],
      ],
      'ignore',
    );
    await camera.printed(/^ready$/m, 60_000);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const read = (name: string, what: string): NodeFigures => {
      const v = latest.get(name);
      if (!v) throw new Error(`no diagnostics from ${name}`);
      return {
        node: name,
        case: what,
        depth_ms_p50: Number(v.get('depth_ms_p50')),
        depth_ms_p95: Number(v.get('depth_ms_p95')),
        frames_with_depth: Number(v.get('frames_with_depth')),
      };
    };
    return [read('db_det20', '20 detections'), read('db_pose', '5 poses (17 keypoints)')];
  } finally {
    await camera?.stop();
    for (const p of procs) await p.stop();
    watcher.destroy();
    await rcl.shutdown();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, USAGE)) return;
  const args = parseBenchArgs(argv);
  const flags = new BenchFlags(args.rest);
  const iterations = flags.int('--iterations', 2000, 10);
  const rate = flags.int('--rate', 30, 1);
  flags.finish();
  const seconds = args.seconds ?? 20;
  const jsonPath = args.jsonPath ?? packagePath('bench', 'results', 'figures', 'depth.json');
  process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? String(100 + (process.pid % 100));
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const stage = stageWork(iterations);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-depth-bench-'));
  let nodes: NodeFigures[];
  try {
    nodes = await inNodes(seconds, rate, tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(`depth: true at ${W}x${H}, ${cpu}, ${os.cpus().length} cores\n`);
  process.stdout.write(
    `stage work in this process (${iterations} frames):\n${formatTable(stage.map((r) => ({ ...r })))}\n`,
  );
  process.stdout.write(
    `depth stage in the nodes (${rate} Hz, ${seconds} s, over DDS):\n${formatTable(nodes.map((r) => ({ ...r })))}\n`,
  );
  const out = {
    date: new Date().toISOString(),
    cpu,
    cores: os.cpus().length,
    width: W,
    height: H,
    iterations,
    seconds,
    rate,
    stage,
    nodes,
  };
  fs.mkdirSync(path.dirname(path.resolve(jsonPath)), { recursive: true });
  fs.writeFileSync(jsonPath, `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(`wrote ${jsonPath}\n`);
}

if (require.main === module) runMain(main);
