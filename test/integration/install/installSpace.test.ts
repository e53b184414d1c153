import { strict as assert } from 'node:assert';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PERCEPTION_PARAMETERS } from '../../../src/config/perceptionConfig';
import { installedWorkspace, InstalledWorkspace } from '../../support/colconWorkspace';
import { repoPath } from '../../support/paths';
import { loadSharp } from '../../../src/util/loadSharp';
import { photoFrame } from '../../support/photos';

/** Fast DDS' own shared-memory segment (512 KB) and the large-frame profile's (16 MB). */
const PROFILE_SEGMENT_BYTES = 16 * 1024 * 1024;
/** Variables that would make a node's DDS behaviour ours rather than the robot's. */
const DISCOVERY_VARIABLES = [
  'ROS_AUTOMATIC_DISCOVERY_RANGE',
  'ROS_LOCALHOST_ONLY',
  'ROS_DOMAIN_ID',
  'ROS_STATIC_PEERS',
  'FASTDDS_DEFAULT_PROFILES_FILE',
  'FASTRTPS_DEFAULT_PROFILES_FILE',
];
/** Packages the install must never carry: dev dependencies, build tools, upstream prebuilds. */
const NOT_AT_RUN_TIME = [
  'typescript',
  'mocha',
  'eslint',
  'prettier',
  'dependency-cruiser',
  'cmake-js',
  'node-gyp',
  '@types',
  'onnxruntime-node',
  'node-addon-api',
  path.join('rclnodejs', 'prebuilds'),
  path.join('rclnodejs', 'src'),
];

interface Started {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Runs `script` in bash with only the ROS environment and install/setup.bash, from `cwd`. */
function startInstalled(
  w: InstalledWorkspace,
  script: string,
  cwd: string,
  env: Record<string, string> = {},
): Started {
  const child = spawn(
    'bash',
    ['-c', `set -e\n${w.rosSetup}\nsource "${path.join(w.install, 'setup.bash')}"\n${script}`],
    { cwd, env: { ...w.cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const listeners = new Set<() => void>();
  const take = (d: Buffer): void => {
    out += d.toString();
    listeners.forEach((l) => l());
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited: () => exit,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = (): void => {
          if (pattern.test(out)) {
            done();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} in ${timeoutMs} ms:\n${out}`));
        }, timeoutMs);
        listeners.add(check);
        void exit.then(() => setTimeout(check, 0));
        check();
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(t);
      }
    },
  };
}

/** Size of the largest Fast DDS shared-memory segment (/dev/shm/fast{dds,rtps}_<guid>) `pid` maps. */
function largestSegment(pid: number): number {
  let largest = 0;
  for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) .* \/dev\/shm\/fast(?:dds|rtps)_[0-9a-f]+$/.exec(line);
    if (m) largest = Math.max(largest, parseInt(m[2]!, 16) - parseInt(m[1]!, 16));
  }
  return largest;
}

/** Waits until `pid` maps a Fast DDS segment (its participant is up); returns the largest. */
async function segmentOnceMapped(pid: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const bytes = largestSegment(pid);
    if (bytes > 0) return bytes;
    if (Date.now() > until) throw new Error(`pid ${pid} mapped no Fast DDS segment`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function environOf(pid: number): Map<string, string> {
  return new Map(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((e) => e.includes('='))
      .map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  );
}

interface PeerAnswer {
  detections?: { class_id: string; score: number }[];
  labels?: Record<string, string>;
  published?: number;
  error?: string;
}

/**
 * Issue 33's "done when": the package built by colcon in a throwaway workspace, its source folder
 * moved away, started from a folder with nothing of ours in it, in a shell with only the ROS
 * environment and install/setup.bash (no HTP_* variable, no discovery settings), answers an rclpy
 * node that has no discovery settings either: the robot's defaults on both sides.
 */
describe('the install space runs on its own (colcon build, source moved away, only the ROS environment)', function () {
  let w: InstalledWorkspace;
  let cwd = '';
  let frame = { file: '', width: 0, height: 0 };
  const started: Started[] = [];
  const own = (s: Started): Started => {
    started.push(s);
    return s;
  };
  const unique = `install_${process.pid}`;

  before(async function () {
    this.timeout(900_000);
    w = installedWorkspace();
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-elsewhere-'));
    // Half size (320x212, 203 KB): under Fast DDS' default 512 KB shared-memory segment, so the
    // frame travels as one sample. At 640x424 with the robot's defaults it goes as UDP fragments,
    // most of them lost best effort on this machine (254 frames 0.5 s apart before one arrived
    // whole, once): camera-sized frames on default DDS are robot.md's "DDS on a robot, and
    // camera-sized frames", and the large_frames case below checks the profile that carries them.
    const photo = await photoFrame('person.jpg');
    const half = await loadSharp()(photo.data, {
      raw: { width: photo.width, height: photo.height, channels: 3 },
    })
      .resize(Math.round(photo.width / 2))
      .raw()
      .toBuffer({ resolveWithObject: true });
    frame = {
      file: path.join(cwd, 'person.rgb'),
      width: half.info.width,
      height: half.info.height,
    };
    fs.writeFileSync(frame.file, half.data);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });
  after(() => {
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
  });

  /** The rclpy peer: publishes the photo on `image` until `detections` answers for it. */
  async function askPeer(image: string, node: string, frameId: string): Promise<PeerAnswer> {
    const peer = own(
      startInstalled(
        w,
        `exec python3 "${repoPath('test', 'fixtures', 'ros', 'install_peer.py')}" --image ${image} ` +
          `--file "${frame.file}" --width ${frame.width} --height ${frame.height} --frame-id ${frameId} ` +
          `--detections /${node}/detections --labels /${node}/labels --timeout 150`,
        cwd,
      ),
    );
    const code = await peer.exited();
    const last = peer
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .pop();
    assert.ok(last, `the peer said nothing (exit ${code}):\n${peer.output()}`);
    const answer = JSON.parse(last) as PeerAnswer;
    assert.equal(code, 0, `peer: ${last}`);
    // How long discovery and the first run took, in the peer's frames (0.5 s apart).
    console.log(`      ${node} answered after ${answer.published} frames`);
    return answer;
  }

  function assertDetected(answer: PeerAnswer, what: string): void {
    assert.ok(answer.detections && answer.detections.length > 0, `${what}: no detections`);
    const labels = answer.labels ?? {};
    assert.ok(Object.keys(labels).length > 0, `${what}: empty ~/labels`);
    for (const d of answer.detections)
      assert.ok(d.class_id in labels, `${what}: class ${d.class_id} not in ~/labels`);
  }

  it('installs the addon with the ONNX Runtime it links beside it, found through RUNPATH $ORIGIN', function () {
    const engine = path.join(w.lib, 'engine');
    const addon = path.join(engine, 'htp_engine.node');
    const dyn = spawnSync('readelf', ['-d', addon], { encoding: 'utf8' });
    assert.equal(dyn.status, 0, dyn.stderr);
    assert.match(dyn.stdout, /\(RUNPATH\)\s+Library runpath: \[\$ORIGIN\]/);
    const needed = [...dyn.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map(
      (m) => m[1]!,
    );
    const ort = needed.find((n) => n.startsWith('libonnxruntime'));
    assert.ok(ort, `the addon links ONNX Runtime: ${needed.join(', ')}`);
    assert.ok(fs.statSync(path.join(engine, ort)).isFile(), `${ort} beside the addon`);
    // Not programs: `ros2 run` lists every executable file under lib/htp_perception.
    for (const f of fs.readdirSync(engine))
      assert.equal(fs.statSync(path.join(engine, f)).mode & 0o111, 0, `${f} is not executable`);
  });

  it('installs the run-time npm packages (rclnodejs as bootstrap built it), no dev ones, no links out', function () {
    const nm = path.join(w.share, 'node_modules');
    assert.ok(!fs.lstatSync(nm).isSymbolicLink(), 'node_modules is a folder, not a link');
    const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const dep of Object.keys(pkg.dependencies))
      if (!NOT_AT_RUN_TIME.includes(dep))
        assert.ok(fs.existsSync(path.join(nm, dep, 'package.json')), `${dep} installed`);
    for (const built of ['build/Release/rclnodejs.node', 'generated', 'dist/index.cjs'])
      assert.ok(fs.existsSync(path.join(nm, 'rclnodejs', built)), `rclnodejs/${built}`);
    for (const absent of NOT_AT_RUN_TIME)
      assert.ok(!fs.existsSync(path.join(nm, absent)), `${absent} is not installed`);
    // Nothing in the install space leads outside it (the source folder, the checkout).
    const links = spawnSync('find', [w.install, '-type', 'l'], { encoding: 'utf8' });
    for (const link of links.stdout.split('\n').filter(Boolean)) {
      const target = fs.realpathSync(link);
      assert.ok(target.startsWith(`${w.install}/`), `${link} -> ${target}`);
    }
  });

  it('perception_node from any folder loads its default model and answers a photo on /x/image_raw with detections and ~/labels', async function () {
    this.timeout(300_000);
    const defaultModel = String(PERCEPTION_PARAMETERS.model.default);
    const image = `/${unique}/image_raw`;
    const node = own(
      startInstalled(
        w,
        `exec "${path.join(w.lib, 'perception_node')}" --ros-args -r image:=${image}`,
        cwd,
      ),
    );
    await node.waitFor(/\]: model \S+ \(fp32\) on cpu/, 180_000);
    assert.match(
      node.output(),
      new RegExp(`model ${path.basename(defaultModel, '.manifest.json')} \\(fp32\\) on cpu`),
    );
    const answer = await askPeer(image, 'perception', `${unique}_single`);
    assertDetected(answer, 'perception_node');

    // The robot's DDS settings, not ours: nothing set, Fast DDS' own 512 KB segments.
    const pid = node.child.pid!;
    const env = environOf(pid);
    for (const name of DISCOVERY_VARIABLES) assert.ok(!env.has(name), `${name} is set`);
    const ours = [...env.keys()].filter((k) => k.startsWith('HTP_'));
    assert.deepEqual(ours, [], 'no HTP_* variable');
    assert.ok(largestSegment(pid) < PROFILE_SEGMENT_BYTES, 'no large-frame profile by default');
    // It ran from the install space, not from anything of the build.
    assert.ok(!fs.existsSync(path.join(w.ws, 'src', 'htp_perception')), 'the source moved away');
  });

  it('perception_container answers on its first pipeline with the installed config/pipelines.yaml', async function () {
    this.timeout(400_000);
    const pipelinesFile = path.join(w.share, 'config', 'pipelines.yaml');
    const list = spawnSync(
      'python3',
      [
        '-c',
        'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))["perception_container"]["ros__parameters"]["pipelines"]))',
        pipelinesFile,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(list.status, 0, list.stderr);
    const pipelines = JSON.parse(list.stdout) as string[];
    const image = `/${unique}/container/image_raw`;
    const container = own(
      startInstalled(
        w,
        `exec "${path.join(w.lib, 'perception_container')}" --ros-args --params-file "${pipelinesFile}" -r image:=${image}`,
        cwd,
      ),
    );
    // Every pipeline loads its model from the install's models/ (the file names them by name).
    for (const p of pipelines) await container.waitFor(new RegExp(`\\[${p}\\]: model `), 300_000);
    const answer = await askPeer(image, pipelines[0]!, `${unique}_container`);
    assertDetected(answer, `perception_container's ${pipelines[0]}`);
  });

  it('HTP_PERCEPTION_LARGE_FRAMES=true (what large_frames:=true sets) gives 16 MB shared-memory segments', async function () {
    this.timeout(120_000);
    const pass = own(
      startInstalled(
        w,
        `exec "${path.join(w.lib, 'pass_through_node')}" --ros-args -r image:=/${unique}/pass/image_raw`,
        cwd,
        { HTP_PERCEPTION_LARGE_FRAMES: 'true' },
      ),
    );
    const bytes = await segmentOnceMapped(pass.child.pid!, 60_000);
    const env = environOf(pass.child.pid!);
    const profile =
      env.get('FASTDDS_DEFAULT_PROFILES_FILE') ?? env.get('FASTRTPS_DEFAULT_PROFILES_FILE');
    assert.equal(profile, path.join(w.share, 'config', 'fastdds_large_frames.xml'));
    assert.ok(
      !(env.has('FASTDDS_DEFAULT_PROFILES_FILE') && env.has('FASTRTPS_DEFAULT_PROFILES_FILE')),
      'one variable, the one this Fast DDS reads',
    );
    assert.ok(bytes >= PROFILE_SEGMENT_BYTES, `largest segment ${bytes} bytes`);
  });
});
