import { strict as assert } from 'node:assert';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PERCEPTION_PARAMETERS } from '../../../src/config/perceptionConfig';
import { installedWorkspace, InstalledWorkspace } from '../../support/colconWorkspace';
import { REPO_ROOT, repoPath } from '../../support/paths';
import { tempDirOutsideCheckout } from '../../support/tempDir';
import { inspectLaunch, yamlJson } from '../../support/launchFacts';
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
  let maps = '';
  try {
    maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return 0; // gone: the caller sees it exit
  }
  for (const line of maps.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) .* \/dev\/shm\/fast(?:dds|rtps)_[0-9a-f]+$/.exec(line);
    if (m) largest = Math.max(largest, parseInt(m[2]!, 16) - parseInt(m[1]!, 16));
  }
  return largest;
}

/** Waits until `s` maps a Fast DDS segment (its participant is up); returns the largest. */
async function segmentOnceMapped(s: Started, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  const pid = s.child.pid!;
  for (;;) {
    if (s.child.exitCode !== null || s.child.signalCode !== null)
      throw new Error(
        `pid ${pid} ended (${s.child.exitCode ?? s.child.signalCode}):\n${s.output()}`,
      );
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

/** What install_peer.py says of one topic's first answer to its frame. */
interface TopicAnswer {
  detections?: { class_id: string; score: number }[];
  people?: number;
  skeletons?: string[];
  keypoints?: number[];
  width?: number;
  height?: number;
  encoding?: string;
  nonzero?: number | null;
}

interface PeerAnswer {
  answers?: Record<string, TopicAnswer>;
  labels?: Record<string, string> | null;
  published?: number;
  error?: string;
}

/** What a node publishes its results on, by its model's task (docs/nodes.md). */
const ANSWER_BY_TASK: Readonly<Record<string, { kind: string; topic: string }>> = {
  detect: { kind: 'detections', topic: 'detections' },
  segment: { kind: 'detections', topic: 'detections' },
  pose: { kind: 'poses', topic: 'poses' },
  semantic: { kind: 'segmentation', topic: 'segmentation' },
};

/** The task of an installed model, from its manifest under share/htp_perception/models. */
function installedTask(share: string, model: string): string {
  const found = spawnSync('find', [path.join(share, 'models'), '-name', `${model}.manifest.json`], {
    encoding: 'utf8',
  });
  const file = found.stdout.split('\n').find(Boolean);
  assert.ok(file, `no installed manifest for ${model}`);
  const task = (JSON.parse(fs.readFileSync(file, 'utf8')) as { task?: unknown }).task;
  assert.ok(typeof task === 'string' && task in ANSWER_BY_TASK, `${file}: task ${String(task)}`);
  return task;
}

/** A file's first bytes: ELF, other binary (a NUL byte), or text. */
function fileKind(file: string): 'elf' | 'binary' | 'text' {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(8192);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (n >= 4 && head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'elf';
    return head.subarray(0, n).includes(0) ? 'binary' : 'text';
  } finally {
    fs.closeSync(fd);
  }
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
    cwd = tempDirOutsideCheckout('htp-elsewhere-');
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

  /**
   * The rclpy peer: publishes the photo on `image` until every `expect` topic (kind => topic)
   * answered it and, with `labels`, a LabelInfo arrived.
   */
  async function askPeer(
    image: string,
    expect: readonly { kind: string; topic: string }[],
    labels: string | undefined,
    frameId: string,
  ): Promise<PeerAnswer> {
    const peer = own(
      startInstalled(
        w,
        `exec python3 "${repoPath('test', 'fixtures', 'ros', 'install_peer.py')}" --image ${image} ` +
          `--file "${frame.file}" --width ${frame.width} --height ${frame.height} --frame-id ${frameId} ` +
          expect.map((e) => `--expect ${e.kind}=${e.topic} `).join('') +
          (labels ? `--labels ${labels} ` : '') +
          `--timeout 150`,
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
    console.log(
      `      ${expect.map((e) => e.topic).join(', ')} answered after ${answer.published} frames`,
    );
    return answer;
  }

  /** person.jpg shows one person: what each kind of answer must say of it. */
  function assertAnswered(answer: PeerAnswer, kind: string, topic: string, what: string): void {
    const a = answer.answers?.[topic];
    assert.ok(a, `${what}: no answer on ${topic}`);
    if (kind === 'detections') {
      assert.ok(a.detections && a.detections.length > 0, `${what}: no detections`);
      const labels = answer.labels ?? {};
      assert.ok(Object.keys(labels).length > 0, `${what}: empty ~/labels`);
      for (const d of a.detections)
        assert.ok(d.class_id in labels, `${what}: class ${d.class_id} not in ~/labels`);
      assert.ok(
        a.detections.some((d) => labels[d.class_id] === 'person'),
        `${what}: no person among ${JSON.stringify(a.detections)}`,
      );
    } else if (kind === 'poses') {
      assert.ok((a.people ?? 0) >= 1, `${what}: ${JSON.stringify(a)}`);
      // Most of a standing person's 17 keypoints are found (the photo shows them whole).
      assert.ok(Math.max(...(a.keypoints ?? [0])) >= 10, `${what}: ${JSON.stringify(a)}`);
    } else {
      assert.equal(a.width, frame.width, `${what}: mask width`);
      assert.equal(a.height, frame.height, `${what}: mask height`);
      // The person covers a good part of the photo, not all of it.
      const f = a.nonzero ?? 0;
      assert.ok(f > 0.05 && f < 0.9, `${what}: ${JSON.stringify(a)}`);
    }
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
    for (const f of fs.readdirSync(engine, { recursive: true }).map(String)) {
      const st = fs.statSync(path.join(engine, f));
      if (st.isFile()) assert.equal(st.mode & 0o111, 0, `${f} is not executable`);
    }
  });

  it('installs the ExecuTorch plug-in beside the addon, its runtime in engine/executorch, and runs a program from there', function () {
    const engine = path.join(w.lib, 'engine');
    const plugin = path.join(engine, 'htp_executorch.so');
    const dyn = spawnSync('readelf', ['-d', plugin], { encoding: 'utf8' });
    assert.equal(dyn.status, 0, dyn.stderr);
    assert.match(dyn.stdout, /\(RUNPATH\)\s+Library runpath: \[\$ORIGIN\/executorch\]/);
    for (const m of dyn.stdout.matchAll(
      /\(NEEDED\)\s+Shared library: \[(libexecutorch[^\]]*)\]/g,
    )) {
      assert.ok(fs.statSync(path.join(engine, 'executorch', m[1]!)).isFile(), `${m[1]} installed`);
    }
    // The installed engine, from the installed dist: the plug-in loads and runs the installed program.
    const script = `
      const { nativeAddon } = require(${JSON.stringify(path.join(w.share, 'dist', 'src', 'engine', 'nativeAddon.js'))});
      const { EngineSession } = require(${JSON.stringify(path.join(w.share, 'dist', 'src', 'engine', 'engineSession.js'))});
      (async () => {
        const s = await EngineSession.load({ model: process.argv[1], threads: 1 });
        const f = { data: new Uint8Array(64 * 48 * 3).fill(100), width: 64, height: 48, step: 192, encoding: 'rgb8' };
        const r = await s.run(f);
        console.log(JSON.stringify({ runtime: nativeAddon().executorchRuntime(), report: s.providerReport.runtime, dims: r.outputs[0].dims }));
        s.dispose();
      })().catch((e) => { console.error(e.code, e.message); process.exit(1); });`;
    const program = path.join(w.share, 'models', 'yolov8-fall-executorch', 'yolov8s-fall.pte');
    const r = spawnSync(process.execPath, ['-e', script, program], {
      encoding: 'utf8',
      env: w.cleanEnv,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      runtime: { version: '1.5.1' },
      report: 'executorch',
      dims: [1, 6, 8400],
    });
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

  /**
   * Where the build ran and where its sources were: the checkout (its node_modules, .ros, build),
   * the workspace's build/ and src/. On this machine the ROS installation itself lives in the
   * checkout (.ros/venv: the wheels' prefix, what /opt/ros/<distro> is on a robot), and the
   * install rightly names it (colcon's prefix chain, rclnodejs' RUNPATH): paths into it are the
   * ROS environment, not the checkout.
   */
  function buildPaths(): { forbidden: string[]; ros: string[] } {
    const real = (p: string): string => (fs.existsSync(p) ? fs.realpathSync(p) : p);
    const forbidden = [
      REPO_ROOT,
      real(REPO_ROOT),
      path.join(w.ws, 'build'),
      path.join(w.ws, 'src'),
    ];
    const ros = [process.env.HTP_ROS_PREFIX, repoPath('.ros', 'venv')]
      .filter((p): p is string => !!p)
      .flatMap((p) => [p, real(p)]);
    return { forbidden: [...new Set(forbidden)], ros: [...new Set(ros)] };
  }

  /** The places `text` names one of `forbidden`, unless the path goes on into a `ros` prefix. */
  function namedPaths(text: string, forbidden: string[], ros: string[]): string[] {
    const found: string[] = [];
    for (const f of forbidden) {
      for (let i = text.indexOf(f); i >= 0; i = text.indexOf(f, i + 1)) {
        const rest = text.slice(i, i + 400);
        const pathHere = /^[^\s'"`:;,)\]}\0]*/.exec(rest)![0];
        if (!ros.some((r) => pathHere === r || pathHere.startsWith(`${r}/`))) found.push(pathHere);
      }
    }
    return found;
  }

  it('names no folder of the checkout or the build in any installed text file or RUNPATH', function () {
    this.timeout(120_000);
    const { forbidden, ros } = buildPaths();
    const listed = spawnSync('find', [w.install, '-type', 'f'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(listed.status, 0, listed.stderr);
    const files = listed.stdout.split('\n').filter(Boolean);
    const offenders: string[] = [];
    let texts = 0;
    let elves = 0;
    for (const file of files) {
      const kind = fileKind(file);
      if (kind === 'text') {
        texts++;
        for (const p of namedPaths(fs.readFileSync(file, 'latin1'), forbidden, ros))
          offenders.push(`${path.relative(w.install, file)}: ${p}`);
      } else if (kind === 'elf') {
        elves++;
        const dyn = spawnSync('readelf', ['-d', file], { encoding: 'utf8' });
        assert.equal(dyn.status, 0, `${file}: ${dyn.stderr}`);
        for (const m of dyn.stdout.matchAll(
          /\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]/g,
        ))
          for (const entry of m[1]!.split(':'))
            for (const p of namedPaths(entry, forbidden, ros))
              offenders.push(`${path.relative(w.install, file)} RUNPATH: ${p}`);
      }
    }
    console.log(
      `      ${texts} text files and ${elves} ELF files scanned for ${forbidden.join(', ')}`,
    );
    // The scan saw the install: its launchers (text) and its addon (ELF) at least.
    assert.ok(texts > 100 && elves >= 2, `${texts} text files, ${elves} ELF files`);
    assert.deepEqual(offenders.slice(0, 20), [], `${offenders.length} paths out of the install`);
  });

  it('a production dependency deleted from the installed node_modules: perception_node fails, naming it', async function () {
    this.timeout(120_000);
    // zod checks every parameter at start-up: no node starts without it. Were the install space
    // below the checkout, Node would find <checkout>/node_modules/zod and this would pass.
    const dep = path.join(w.share, 'node_modules', 'zod');
    assert.ok(fs.existsSync(path.join(dep, 'package.json')), 'zod is installed');
    fs.renameSync(dep, `${dep}.deleted`);
    try {
      const node = own(
        startInstalled(
          w,
          `exec "${path.join(w.lib, 'perception_node')}" --ros-args -r __ns:=/${unique}_nodep`,
          cwd,
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        node.exited(),
        new Promise<'running'>((r) => (timer = setTimeout(() => r('running'), 90_000))),
      ]);
      clearTimeout(timer);
      assert.notEqual(code, 'running', `perception_node runs without zod:\n${node.output()}`);
      assert.notEqual(code, 0, node.output());
      assert.match(node.output(), /Cannot find (?:module|package) 'zod'/);
    } finally {
      fs.renameSync(`${dep}.deleted`, dep);
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
    const detections = '/perception/detections';
    const answer = await askPeer(
      image,
      [{ kind: 'detections', topic: detections }],
      '/perception/labels',
      `${unique}_single`,
    );
    assertAnswered(answer, 'detections', detections, 'perception_node');
    // The installed video addon (lib/htp_perception/video) loads: the node names its encoder.
    await node.waitFor(
      /~\/annotated\/foxglove \(H\.264\) encodes with software \(OpenH264/,
      30_000,
    );

    // The robot's DDS settings, not ours: nothing set, Fast DDS' own 512 KB segments.
    const pid = node.child.pid!;
    const env = environOf(pid);
    for (const name of DISCOVERY_VARIABLES) assert.ok(!env.has(name), `${name} is set`);
    assert.equal(env.get('NODE_PATH') ?? '', '', 'NODE_PATH is empty');
    const ours = [...env.keys()].filter((k) => k.startsWith('HTP_'));
    assert.deepEqual(ours, [], 'no HTP_* variable');
    assert.ok(largestSegment(pid) < PROFILE_SEGMENT_BYTES, 'no large-frame profile by default');
    // It ran from the install space, not from anything of the build.
    assert.ok(!fs.existsSync(path.join(w.ws, 'src', 'htp_perception')), 'the source moved away');
  });

  it('perception_container with the installed config/pipelines.yaml: every pipeline answers the photo', async function () {
    this.timeout(400_000);
    const pipelinesFile = path.join(w.share, 'config', 'pipelines.yaml');
    const models = yamlJson<Record<string, string>>(
      pipelinesFile,
      '{p: d[p]["ros__parameters"]["model"] for p in d["perception_container"]["ros__parameters"]["pipelines"]}',
    );
    const pipelines = Object.keys(models);
    assert.ok(pipelines.length >= 2, `pipelines: ${JSON.stringify(models)}`);
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
    const expect = pipelines.map((p) => {
      const a = ANSWER_BY_TASK[installedTask(w.share, models[p]!)]!;
      return { pipeline: p, kind: a.kind, topic: `/${p}/${a.topic}` };
    });
    const labelled = expect.find((e) => e.kind === 'detections');
    const answer = await askPeer(
      image,
      expect,
      labelled ? `/${labelled.pipeline}/labels` : undefined,
      `${unique}_container`,
    );
    for (const e of expect)
      assertAnswered(
        answer,
        e.kind,
        e.topic,
        `perception_container's ${e.pipeline} (${models[e.pipeline]})`,
      );
  });

  /**
   * `ros2 launch htp_perception <file> large_frames:=true`, as docs/robot.md tells users. The
   * launch packages have no wheels here (no launch, launch_ros, ros2 CLI), so the installed launch
   * file is read as the launch test reads it (inspectLaunch) and its
   * effect applied: each of its nodes' installed executable, started with the environment the file
   * gives that node for large_frames:=true. No variable of ours is named here: a launch file that
   * stopped passing the argument on, or passed it under another name, gets no profile.
   */
  it('large_frames:=true of every installed launch file gives its nodes 16 MB shared-memory segments', async function () {
    this.timeout(300_000);
    const launchDir = path.join(w.share, 'launch');
    const files = fs.readdirSync(launchDir).filter((f) => /\.launch\.(py|xml)$/.test(f));
    assert.ok(files.length >= 2, `installed launch files: ${files.join(', ')}`);
    let started = 0;
    for (const file of files) {
      const facts = inspectLaunch(path.join(launchDir, file));
      assert.ok('large_frames' in facts.arguments, `${file} declares large_frames`);
      for (const node of facts.nodes) {
        // The variables whose value is the large_frames argument itself.
        const env = Object.fromEntries(
          Object.entries(node.env)
            .filter(([, args]) => args.length === 1 && args[0] === 'large_frames')
            .map(([name]) => [name, 'true']),
        );
        const what = `${file}'s ${node.executable}`;
        assert.ok(Object.keys(env).length > 0, `${what}: large_frames reaches no variable`);
        // A container needs pipelines: the launch file's default pipelines:= file.
        const params =
          node.executable === 'perception_container'
            ? ` --params-file "${path.join(w.share, 'config', 'pipelines.yaml')}"`
            : '';
        const run = own(
          startInstalled(
            w,
            `exec "${path.join(w.lib, node.executable)}" --ros-args${params} -r __ns:=/${unique}_large -r image:=/${unique}/large/image_raw`,
            cwd,
            env,
          ),
        );
        const pid = run.child.pid!;
        const bytes = await segmentOnceMapped(run, 60_000);
        const seen = environOf(pid);
        const profile =
          seen.get('FASTDDS_DEFAULT_PROFILES_FILE') ?? seen.get('FASTRTPS_DEFAULT_PROFILES_FILE');
        assert.equal(profile, path.join(w.share, 'config', 'fastdds_large_frames.xml'), what);
        assert.ok(
          !(
            seen.has('FASTDDS_DEFAULT_PROFILES_FILE') && seen.has('FASTRTPS_DEFAULT_PROFILES_FILE')
          ),
          `${what}: one variable, the one this Fast DDS reads`,
        );
        assert.ok(bytes >= PROFILE_SEGMENT_BYTES, `${what}: largest segment ${bytes} bytes`);
        await run.stop();
        started++;
      }
    }
    console.log(
      `      ${started} nodes of ${files.length} launch files started as large_frames:=true sets them`,
    );
  });
});
