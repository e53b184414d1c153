import type * as Rclnodejs from 'rclnodejs';
import { ConfigError } from '../../core/configError';
import { nativeAddon } from '../../engine/nativeAddon';
import {
  depthSettings,
  DepthSettings,
  frameOptions,
  PERCEPTION_PARAMETERS,
  PerceptionConfig,
  parsePerceptionConfig,
} from '../../config/perceptionConfig';
import type { ParameterValue } from '../../core/parameterSpec';
import { PerceptionPipeline, Task } from '../../pipeline/perceptionPipeline';
import type { Precision } from '../../pipeline/runtimeChoices';
import { checksumMismatchMessage, modelChecksum } from '../../pipeline/verifyModelChecksum';
import type { ModelManifest } from '../../config/modelManifest';
import type { CameraHub } from '../../ros/cameraHub';
import type { DepthHub } from '../../ros/depthHub';
import type { TransformHub } from '../../ros/transformListener';
import {
  declareDescribedParameters,
  gateParameterChanges,
} from '../../ros/declareDescribedParameters';
import { type DiagnosticReport, DiagnosticsPublisher } from '../../ros/diagnosticsPublisher';
import { ManagedNode, PrimaryState } from '../../ros/managedNode';
import { ThrottledLog } from '../../ros/throttledLog';
import { collectGarbage } from '../../util/collectGarbage';
import { LatencyClock } from '../../ros/latencyClock';
import { AcceleratorRecovery, type AcceleratorPolicy } from './acceleratorRecovery';
import { FrameOutputs, FrameRunnerHost, FrameWork, runFrames } from './frameRunner';
import { CameraChannel, type ChannelInputs } from './cameraChannel';
import { RobotFrameDetections } from './robotFrameDetections';
import { CameraMailboxes } from './cameraMailboxes';
import { BatchedRuns, batchingFacts, batchingStatement, idleSlots } from './batchedRuns';
import { nodeDiagnostics, type NodeDiagnosticsInput, sessionDiagnostics } from './nodeDiagnostics';

/** What each camera reports of its own in the diagnostics. */
type ChannelKeys =
  'camera' | 'staleInputs' | 'input' | 'intake' | 'droppedStale' | 'stats' | 'view' | 'depth';
import { NodeStats } from './nodeStats';
import type { PipelineRegistry } from './pipelineRegistry';
import { type StaleInput, StaleInputs, type WatchedInput } from './staleInputs';
import { withFields } from '../../core/withFields';

/** What the nodes of one process share: rclnodejs, the camera subscriptions, each other. */
export interface PerceptionProcess {
  readonly rcl: typeof Rclnodejs;
  readonly cameras: CameraHub;
  readonly depths: DepthHub;
  /** /tf and /tf_static, for nodes with a target_frame. */
  readonly transforms: TransformHub;
  readonly pipelines: PipelineRegistry;
}

/** Configured state: everything configure made and cleanup frees. */
interface Configured extends FrameOutputs {
  /** What the node does when its engine fails mid-run (on_accelerator_failure). */
  readonly recovery: AcceleratorRecovery;
  /** With several cameras, depth and target_frame: ~/detections_3d of all of them. */
  readonly robotFrame: RobotFrameDetections | undefined;
  /** The batched runs since configure (a batch-N model's). */
  readonly batches: BatchedRuns;
}

/** Active state: everything activate started and deactivate stops (and each channel's inputs). */
interface Active {
  readonly mailboxes: CameraMailboxes<FrameWork>;
  readonly loop: Promise<void>;
  readonly unfollow: (() => void) | undefined;
}

const SESSION_HINT = 'deactivate the node, set it, then cleanup and configure again';

/**
 * Why an `unconfigured` parameter waits for cleanup: the loaded models were checked (manifest,
 * checksum, task) as they were named; changing the name under a configured node would leave the
 * value saying one file while another one runs, until the next configure.
 */
function unconfiguredOnlyReason(name: string): string {
  const why =
    name === 'allow_model_mismatch' ? 'decides which model files may load' : 'names a file';
  return `${name} ${why}: change it while unconfigured (cleanup first)`;
}

/**
 * A managed perception node: camera (or a detection pipeline's results) -> latest-frame mailbox ->
 * model pipeline (CPU or HTP) -> result messages with the image's header, plus the annotated
 * picture while someone watches and diagnostics at 1 Hz.
 *  - configure: parameters checked, models loaded (sessions, EP context cache), publishers made;
 *  - activate: input subscribed, frames flow, the power vote follows the runs;
 *  - deactivate: input released, the frame in flight finishes, the vote is released;
 *  - cleanup: sessions and publishers freed; shutdown: from any state.
 * Per-frame parameters apply from the next frame; session parameters are refused while active;
 * parameters that name files (model, person_detector, context_cache) only change unconfigured.
 */
export class PerceptionNode {
  readonly managed: ManagedNode;
  private values: Record<string, ParameterValue>;
  private configured: Configured | undefined;
  private active: Active | undefined;
  private configureError = '';
  /** What an unconfigured node reports (no camera has counted anything yet). */
  private readonly idleStats = new NodeStats();
  private readonly latencyClock: LatencyClock;
  private readonly warnings: ThrottledLog;
  private readonly notices: ThrottledLog;
  private readonly diagnostics: DiagnosticsPublisher;
  private warnedUndrawable = false;
  /** depth_* frame parameters, as of the last configure or change. */
  private depthNow: DepthSettings | undefined;

  /** The node's name after remapping (`-r __node:=...`): what person_source refers to. */
  readonly name: string;

  constructor(
    private readonly ctx: PerceptionProcess,
    name: string,
    private readonly requiredTask?: Task,
  ) {
    const rcl = ctx.rcl;
    this.managed = new ManagedNode(
      rcl,
      name,
      {
        onConfigure: () => this.onConfigure(),
        onActivate: () => this.onActivate(),
        onDeactivate: () => this.onDeactivate(),
        onCleanup: () => this.onCleanup(),
        onShutdown: (from) => this.onShutdown(from),
      },
      (line) => this.node.getLogger().error(line),
      (line) => this.node.getLogger().warn(line),
    );
    this.values = declareDescribedParameters(rcl, this.node, PERCEPTION_PARAMETERS);
    gateParameterChanges(
      rcl,
      this.node,
      PERCEPTION_PARAMETERS,
      (changes) => this.parameterProblem(changes),
      (changes) => this.applyParameters(changes),
    );
    this.name = this.node.name();
    this.latencyClock = new LatencyClock(this.node);
    this.warnings = new ThrottledLog((l) => this.node.getLogger().warn(l));
    // Three lines per period: a camera swapped twice in a few seconds is logged whole; a source
    // whose format changes every frame is counted.
    this.notices = new ThrottledLog((l) => this.node.getLogger().info(l), { burst: 3 });
    ctx.pipelines.register(this.name);
    this.diagnostics = new DiagnosticsPublisher(rcl, this.node, () => this.reports());
  }

  /**
   * The 1 Hz diagnostics: one status for a single-camera node; for a node with `cameras`, one per
   * camera (its input, rates, drops, faults, tracks, 3D) and one for the node (the shared session).
   */
  private reports(): DiagnosticReport[] {
    const c = this.configured;
    const channels = c ? [...c.channels.values()] : [];
    const shared: Omit<NodeDiagnosticsInput, ChannelKeys> = {
      inputTimeoutS: this.inputTimeoutS,
      state: this.managed.state,
      transition: this.managed.transitionInProgress,
      configureError: this.configureError,
      model: String(this.values.model),
      requestedProvider:
        this.values.provider === 'htp' || this.values.provider === 'gpu'
          ? this.values.provider
          : 'cpu',
      pipeline: c?.pipeline,
      engine: c?.recovery.stats,
      onAcceleratorFailure: String(this.values.on_accelerator_failure),
      memory: process.memoryUsage(),
      malloc: nativeAddon().mallocUsage(),
    };
    const forChannel = (ch: CameraChannel | undefined) =>
      nodeDiagnostics({
        ...shared,
        camera: ch?.camera ?? '',
        staleInputs: ch ? this.checkInputs(ch) : [],
        input: ch?.inputs?.lease?.topic ?? this.inputName(),
        intake: ch?.inputs?.lease?.counters,
        droppedStale:
          (ch?.droppedBefore ?? 0) + (ch ? (this.active?.mailboxes.dropped(ch.camera) ?? 0) : 0),
        stats: ch?.stats ?? this.idleStats,
        view: ch?.view.stats,
        depth: ch?.spatial && {
          depthTopic: ch.inputs?.depth?.depthTopic ?? ch.inputTopics.depth,
          cameraInfoTopic: ch.inputs?.depth?.cameraInfoTopic ?? ch.inputTopics.cameraInfo,
          counters: ch.inputs?.depth?.counters,
          spatial: ch.spatial.stats,
          targetFrame: c?.config.target_frame ?? '',
          transforms: ch.inputs?.transforms?.counters,
        },
      });
    // A node with `cameras` (even one) reports like one with several: a camera's status under
    // its name, the session's under the node's, so a tool reads either the same way.
    if (channels.length === 0 || channels[0]!.camera === '') return [forChannel(channels[0])];
    const perCamera = channels.map((ch) => ({ camera: ch.camera, report: forChannel(ch) }));
    return [
      sessionDiagnostics(
        forChannel(undefined),
        perCamera,
        c?.pipeline.models.length ?? 0,
        c && {
          statement: batchingStatement(batchingFacts(c.pipeline, channels.length)),
          ...c.batches.total,
        },
      ),
      ...perCamera.map((p) => ({ ...p.report, sub: p.camera })),
    ];
  }

  get node(): Rclnodejs.lifecycle.LifecycleNode {
    return this.managed.node;
  }

  get state(): PrimaryState {
    return this.managed.state;
  }

  /** The `autostart` parameter: configure and activate right after start. */
  get autostart(): boolean {
    return this.values.autostart === true;
  }

  private get inputTimeoutS(): number {
    return Number(this.values.input_timeout_s);
  }

  /**
   * The inputs silent for input_timeout_s now; logs once when one goes stale and once when it
   * resumes (this runs on the 1 Hz diagnostics tick, not per frame).
   */
  private checkInputs(ch: CameraChannel): readonly StaleInput[] {
    const inputs = ch.inputs?.stale;
    if (!inputs) return [];
    const { stale, wentStale, resumed } = inputs.update(performance.now(), this.inputTimeoutS);
    const log = this.node.getLogger();
    const who = ch.camera ? `camera ${ch.camera}: ` : '';
    for (const r of resumed) {
      log.info(
        `${who}${r.what} on ${r.topic} again after up to ${r.silentS.toFixed(1)} s of silence`,
      );
    }
    for (const w of wentStale) {
      log.warn(`${who}${StaleInputs.message(w)} (input_timeout_s ${this.inputTimeoutS})`);
    }
    return stale;
  }

  private inputName(): string {
    const source = String(this.values.person_source ?? '');
    return source ? `pipeline ${source}` : '';
  }

  // ---- parameters -------------------------------------------------------------------------

  private parameterProblem(changes: Readonly<Record<string, ParameterValue>>): string {
    const busy = this.managed.state === 'active' || this.managed.transitionInProgress;
    const configured = this.managed.state !== 'unconfigured' || this.managed.transitionInProgress;
    for (const name of Object.keys(changes)) {
      const spec = (PERCEPTION_PARAMETERS as Record<string, { kind: string }>)[name];
      if (spec?.kind === 'unconfigured' && configured) return unconfiguredOnlyReason(name);
      if (spec?.kind === 'session' && busy) {
        return `${name} needs new sessions and cannot change while the node is active: ${SESSION_HINT}`;
      }
    }
    let next: PerceptionConfig;
    try {
      next = parsePerceptionConfig({ ...this.values, ...changes }, `${this.name} parameters`);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    const options = frameOptions(next);
    return (
      this.configured?.pipeline.frameOptionsProblem(options) ||
      (changes.video_encoder !== undefined
        ? [...(this.configured?.channels.values() ?? [])]
            .map((ch) => ch.view.videoEncoderProblem(options.video.encoder))
            .find((p) => p)
        : '') ||
      ''
    );
  }

  private applyParameters(changes: Readonly<Record<string, ParameterValue>>): void {
    this.values = { ...this.values, ...changes };
    // Session values stay those of the loaded models until the next configure; the pipeline
    // holds the per-frame ones.
    const next = parsePerceptionConfig(this.values, `${this.name} parameters`);
    this.configured?.pipeline.setFrameOptions(frameOptions(next));
    this.depthNow = depthSettings(next);
  }

  // ---- lifecycle --------------------------------------------------------------------------

  private async onConfigure(): Promise<void> {
    try {
      const config = parsePerceptionConfig(this.values, `${this.name} parameters`);
      if (config.person_source && !this.ctx.pipelines.has(config.person_source)) {
        throw new ConfigError(
          `person_source '${config.person_source}' is not a pipeline of this process (${this.ctx.pipelines.all.join(', ')})`,
        );
      }
      const pipeline = await PerceptionPipeline.load(
        config,
        frameOptions(config),
        this.requiredTask,
      );
      let channels: Map<string, CameraChannel>;
      const robotFrame =
        config.cameras.length > 0 && config.depth && config.target_frame
          ? new RobotFrameDetections(this.ctx.rcl, this.node)
          : undefined;
      try {
        channels = this.openChannels(config, pipeline, robotFrame);
      } catch (e) {
        robotFrame?.destroy();
        pipeline.dispose();
        throw e;
      }
      this.depthNow = depthSettings(config);
      const recovery = this.acceleratorRecovery(pipeline, config);
      this.configured = {
        config,
        pipeline,
        channels,
        recovery,
        robotFrame,
        batches: new BatchedRuns(),
      };
      this.ctx.pipelines.setCameras(this.name, [...channels.keys()]);
      this.configureError = '';
      this.logPlacement(pipeline, config);
      this.logBatching(pipeline, channels.size);
    } catch (e) {
      this.configureError = e instanceof Error ? e.message : String(e);
      throw e;
    }
  }

  /**
   * A channel per camera: `cameras`, else a person_source's cameras (a pose pipeline follows its
   * detector camera by camera), else the node's single camera ''. A channel that fails to open
   * closes the ones before it.
   */
  private openChannels(
    config: PerceptionConfig,
    pipeline: PerceptionPipeline,
    robotFrame: RobotFrameDetections | undefined,
  ): Map<string, CameraChannel> {
    const source = config.person_source;
    const sourceCameras = source ? this.ctx.pipelines.camerasOf(source) : undefined;
    if (
      config.cameras.length > 0 &&
      sourceCameras &&
      sourceCameras.join() !== config.cameras.join()
    ) {
      throw new ConfigError(
        `cameras [${config.cameras.join(', ')}] differ from person_source ${source}'s [${sourceCameras.join(', ')}]: leave cameras empty to follow its cameras`,
      );
    }
    const cameras = config.cameras.length > 0 ? config.cameras : (sourceCameras ?? ['']);
    const log = this.node.getLogger();
    const channels = new Map<string, CameraChannel>();
    try {
      for (const camera of cameras) {
        channels.set(
          camera,
          new CameraChannel(
            this.ctx.rcl,
            this.node,
            camera,
            config,
            pipeline,
            this.name,
            {
              warn: (line) => log.warn(line),
              undrawable: (encoding) => this.warnUndrawable(encoding),
            },
            robotFrame,
          ),
        );
      }
    } catch (e) {
      for (const ch of channels.values()) void ch.destroy();
      throw e;
    }
    return channels;
  }

  private logPlacement(pipeline: PerceptionPipeline, c: PerceptionConfig): void {
    const log = this.node.getLogger();
    for (const m of pipeline.models) {
      const r = m.providerReport;
      const role = m === pipeline.model ? 'model' : 'person detector';
      this.logChecksum(role, m.manifest, c.precision);
      log.info(
        `${role} ${m.name} (${c.precision}) on ${c.provider}${r.modelSource === 'context_cache' ? ` from the compiled context binary ${m.session.options.htp.context_cache ?? ''}` : ''}${r.runtime === 'executorch' ? ` through ExecuTorch (delegates: ${r.delegates.join(', ') || 'none'})` : ''}: nodes by provider ${JSON.stringify(r.nodesByProvider)}${r.note ? ` (${r.note})` : ''}`,
      );
      if (c.precision === 'int8') {
        const f = m.inputFeed;
        log.info(
          f.fed === 'quantized'
            ? `${m.name}: input fed as ${f.type} (scale ${f.scale}, zero point ${f.zeroPoint}), in place of ${f.removedNode}`
            : `${m.name}: input fed as float (${f.reason})`,
        );
      }
      if (m === pipeline.model && m.keypoints.note) log.warn(m.keypoints.note);
      if (r.cpuInt8Saturates) {
        log.warn(
          `${m.name}: INT8 on CPU kernels that saturate on this CPU (no VNNI); accuracy suffers`,
        );
      }
    }
  }

  /** How the cameras share the model's runs; a batch-N model with idle slots is a warning. */
  private logBatching(pipeline: PerceptionPipeline, cameras: number): void {
    const facts = batchingFacts(pipeline, cameras);
    if (facts.batch < 2 && cameras < 2) return;
    const line = batchingStatement(facts);
    if (idleSlots(facts) > 0) this.node.getLogger().warn(line);
    else this.node.getLogger().info(line);
  }

  /** One line per model file: verified, unverified (no checksum recorded) or let through. */
  private logChecksum(role: string, manifest: ModelManifest, precision: Precision): void {
    // Cached by the load's own check: no second read of the file.
    const c = modelChecksum(manifest, precision);
    const log = this.node.getLogger();
    if (c?.state === 'unrecorded') {
      log.info(
        `${role} ${manifest.name}: ${c.file} is unverified (${manifest.manifestPath} records no files.sha256.${precision})`,
      );
    } else if (c?.state === 'verified') {
      log.info(`${role} ${manifest.name}: ${c.file} matches its manifest's SHA-256`);
    } else if (c?.state === 'mismatch') {
      log.warn(
        `${role} ${manifest.name} loaded because allow_model_mismatch is true: ${checksumMismatchMessage(manifest, precision, c)}`,
      );
    }
  }

  /**
   * The camera-to-node hand-over: every frame the camera hub takes for this node (ImageIntake's
   * raw view or decoded JPEG) and every frame a followed detector hands on with its persons enters
   * here, on the executor's thread, and waits in the newest-frame mailbox that runFrames takes
   * from. A frame still waiting when the next arrives is dropped and counted by the mailbox.
   */
  private handOverFrame(
    mailboxes: CameraMailboxes<FrameWork>,
    ch: CameraChannel,
    work: Omit<FrameWork, 'postedAt'>,
  ): void {
    ch.stats.received++;
    mailboxes.post(ch.camera, withFields(work, { postedAt: performance.now() }));
  }

  private async onActivate(): Promise<void> {
    const c = this.configured;
    if (!c) throw new Error('activate before configure');
    c.pipeline.resetTracking();
    c.recovery.resume();
    const channels = [...c.channels.values()];
    this.node.getLogger().info(channels[0]!.view.videoLine());
    const mailboxes = new CameraMailboxes<FrameWork>([...c.channels.keys()]);
    const source = c.config.person_source;
    for (const ch of channels) ch.inputs = this.attachInputs(ch, c.config, mailboxes, !source);
    const unfollow = source
      ? this.ctx.pipelines.follow(source, (d) => {
          // A camera the source serves and this pipeline does not (it was configured before the
          // source changed its cameras) is not ours to run.
          const ch = c.channels.get(d.camera);
          if (ch) this.handOverFrame(mailboxes, ch, { frame: d.frame, persons: d.persons });
        })
      : undefined;
    this.active = {
      mailboxes,
      loop: runFrames(mailboxes, c, this.frameHost(c)),
      unfollow,
    };
  }

  /** One camera's subscriptions (colour unless frames come from a person_source), depth and tf. */
  private attachInputs(
    ch: CameraChannel,
    config: PerceptionConfig,
    mailboxes: CameraMailboxes<FrameWork>,
    camera: boolean,
  ): ChannelInputs {
    const lease = camera
      ? this.ctx.cameras.attach(
          this.node,
          { topic: ch.inputTopics.image, transport: config.input_transport, qos: config.input_qos },
          (frame) => this.handOverFrame(mailboxes, ch, { frame }),
        )
      : undefined;
    const depth = ch.spatial
      ? this.ctx.depths.attach(this.node, {
          depthTopic: ch.inputTopics.depth,
          depthTransport: config.depth_transport,
          cameraInfoTopic: ch.inputTopics.cameraInfo,
          qos: config.input_qos,
        })
      : undefined;
    const transforms =
      ch.spatial && config.target_frame ? this.ctx.transforms.attach(this.node) : undefined;
    const watched: WatchedInput[] = [];
    if (lease) {
      watched.push({
        what: config.input_transport === 'raw' ? 'image' : 'compressed image',
        topic: lease.topic,
        lastReceivedAt: () => lease.counters.lastReceivedAt,
      });
    }
    if (depth) {
      watched.push(
        {
          what: 'depth image',
          topic: depth.depthTopic,
          lastReceivedAt: () => depth.counters.depthLastReceivedAt,
        },
        {
          what: 'CameraInfo',
          topic: depth.cameraInfoTopic,
          lastReceivedAt: () => depth.counters.cameraInfoLastReceivedAt,
        },
      );
    }
    return { lease, depth, transforms, stale: new StaleInputs(watched, performance.now()) };
  }

  private async onDeactivate(): Promise<void> {
    const a = this.active;
    if (!a) return;
    const channels = [...(this.configured?.channels.values() ?? [])];
    for (const ch of channels) {
      ch.inputs?.lease?.release();
      ch.inputs?.depth?.release();
      ch.inputs?.transforms?.release();
    }
    a.unfollow?.();
    a.mailboxes.close();
    // The frame in flight finishes and is published (or passes its deadline); nothing new is taken.
    await a.loop;
    for (const ch of channels) {
      ch.droppedBefore += a.mailboxes.dropped(ch.camera);
      ch.inputs = undefined;
    }
    this.active = undefined;
    const c = this.configured;
    await c?.recovery.pause();
    for (const ch of channels) await ch.view.idle();
    for (const m of c?.pipeline.models ?? []) m.session.releasePower();
  }

  private async onCleanup(): Promise<void> {
    const c = this.configured;
    if (!c) return;
    this.configured = undefined;
    c.pipeline.dispose();
    for (const ch of c.channels.values()) await ch.destroy();
    c.robotFrame?.destroy();
    collectGarbage();
  }

  private async onShutdown(from: PrimaryState): Promise<void> {
    try {
      if (from === 'active') await this.onDeactivate();
      if (from === 'active' || from === 'inactive') await this.onCleanup();
    } catch (e) {
      // Shutdown must reach finalized; what could not be freed is said once.
      this.node.getLogger().error(`shutdown: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Stops and frees whatever the current state holds (process exit). */
  async stop(): Promise<void> {
    if (this.managed.state !== 'finalized') await this.managed.transition('shutdown');
  }

  destroy(): void {
    this.diagnostics.destroy();
    this.node.destroy();
  }

  /** What the frame path (frameRunner.ts) asks of this node; depth is read per frame. */
  private frameHost(c: Configured): FrameRunnerHost {
    return {
      node: this.node,
      clock: this.latencyClock,
      name: this.name,
      warnings: this.warnings,
      notices: this.notices,
      pipelines: this.ctx.pipelines,
      depth: (camera) => {
        const inputs = c.channels.get(camera)?.inputs;
        const lease = inputs?.depth;
        const transforms = inputs?.transforms;
        const target = transforms && { frame: c.config.target_frame, transforms };
        return lease && this.depthNow ? { lease, settings: this.depthNow, target } : undefined;
      },
      recovery: c.recovery,
      runDeadlineMs: () => Number(this.values.run_deadline_ms),
      batchWindowMs: () => Number(this.values.batch_window_ms),
      batches: c.batches,
    };
  }

  private acceleratorRecovery(
    pipeline: PerceptionPipeline,
    config: PerceptionConfig,
  ): AcceleratorRecovery {
    const log = this.node.getLogger();
    return new AcceleratorRecovery(pipeline, {
      policy: () => this.values.on_accelerator_failure as AcceleratorPolicy,
      configuredProvider: config.provider,
      log: {
        error: (l) => log.error(l),
        warn: (l) => log.warn(l),
        info: (l) => log.info(l),
      },
      deactivate: () => {
        void this.managed.transition('deactivate').then((o) => {
          if (!o.ok) log.error(`on_accelerator_failure stop: deactivate failed: ${o.reason}`);
        });
      },
      report: () => this.diagnostics.publish(),
      now: () => performance.now(),
      setTimer: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
    });
  }

  private warnUndrawable(encoding: string): void {
    // Results were published; only the picture for operators is skipped.
    if (!this.warnedUndrawable) {
      this.node.getLogger().warn(`no annotated image for ${encoding} input yet`);
    }
    this.warnedUndrawable = true;
  }
}
