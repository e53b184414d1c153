import type * as Rclnodejs from 'rclnodejs';
import sharp from 'sharp';
import { loadRclnodejs, runMain } from '../ros/rosEnvironment';
import { ImageIntake, IntakeFrame } from '../ros/imageIntake';
import { encodeImage } from '../ros/imageCodec';
import { encodeCompressedImage } from '../ros/compressedImageCodec';
import { makeQos } from '../ros/qosProfile';
import { declareParameters } from '../ros/nodeParameters';
import { stampNow } from '../ros/rosHeader';
import {
  DIAG_ERROR,
  DIAG_OK,
  DIAG_WARN,
  DiagnosticReport,
  DiagnosticsPublisher,
} from '../ros/diagnosticsPublisher';
import {
  PERCEPTION_DEFAULTS,
  PerceptionConfig,
  parsePerceptionConfig,
} from '../config/perceptionConfig';
import { ConfigError } from '../config/configError';
import { loadModelManifest } from '../config/modelManifest';
import type { Frame } from '../engine/engineSession';
import { ModelPipeline, PipelineResult } from '../pipeline/modelPipeline';
import type { Box } from '../heads/headResults';
import { buildInstanceIdImage } from '../heads/buildInstanceIdImage';
import type { ModelManifest } from '../config/modelManifest';
import type { RosHeader } from '../ros/rosHeader';
import { renderAnnotated } from '../annotate/renderAnnotated';
import { resultAnnotation } from '../annotate/resultAnnotation';
import { percentile } from '../bench/benchArgs';
import { LatestFrameMailbox } from './latestFrameMailbox';
import { detection2DArray, labelInfo, personPoseArray } from './detectionMessages';
import { printHelp, wantsHelp } from './nodeMain';

type Task = ModelManifest['task'];

/**
 * Perception on a camera topic: raw intake -> latest-frame mailbox -> engine (CPU or HTP) -> head
 * -> messages for the model's task, each with the image's header:
 *  - detect:   ~/detections (vision_msgs/Detection2DArray), ~/labels (LabelInfo, transient local)
 *  - segment:  the same plus ~/instances (mono16, pixel = Detection2D.id, 0 = background)
 *  - pose:     ~/poses (htp_perception/PersonPoseArray); HRNet gets its person boxes from the
 *              `person_detector` model run on the same frame
 *  - semantic: ~/segmentation (mono8 class index per pixel) and ~/labels
 * plus ~/annotated (raw and JPEG) only while someone watches it.
 */
export class PerceptionNode {
  readonly node: Rclnodejs.Node;
  readonly config: PerceptionConfig;
  readonly mailbox = new LatestFrameMailbox<IntakeFrame>();
  private pipeline: ModelPipeline | undefined;
  private personDetector: ModelPipeline | undefined;
  private intake: ImageIntake | undefined;
  private detPub: Rclnodejs.Publisher<'vision_msgs/msg/Detection2DArray'> | undefined;
  private labelPub: Rclnodejs.Publisher<'vision_msgs/msg/LabelInfo'> | undefined;
  private posePub: Rclnodejs.Publisher<'htp_perception/msg/PersonPoseArray'> | undefined;
  private maskPub: Rclnodejs.Publisher<'sensor_msgs/msg/Image'> | undefined;
  private readonly annotatedPub: Rclnodejs.Publisher<'sensor_msgs/msg/Image'>;
  private readonly annotatedJpegPub: Rclnodejs.Publisher<'sensor_msgs/msg/CompressedImage'>;
  private loop: Promise<void> | undefined;
  private processed = 0;
  private failed = 0;
  private lastFailure = '';
  private warnedAnnotation = false;
  private inferenceMs: number[] = [];
  private lastReport = { at: performance.now(), processed: 0 };

  constructor(
    private readonly rcl: typeof Rclnodejs,
    name = 'perception',
    private readonly requiredTask?: Task,
  ) {
    this.node = new rcl.Node(name);
    this.config = parsePerceptionConfig(declareParameters(rcl, this.node, PERCEPTION_DEFAULTS));
    const sensor = { qos: makeQos(rcl, 'sensor_data') };
    this.annotatedPub = this.node.createPublisher('sensor_msgs/msg/Image', '~/annotated', sensor);
    this.annotatedJpegPub = this.node.createPublisher(
      'sensor_msgs/msg/CompressedImage',
      '~/annotated/compressed',
      sensor,
    );
    new DiagnosticsPublisher(rcl, this.node, () => this.diagnostics());
  }

  /** Loads the model; a missing, corrupt or mismatched model fails here, naming file and field. */
  async configure(): Promise<void> {
    const c = this.config;
    const pipeline = await ModelPipeline.load(
      c.model,
      {
        provider: c.provider,
        precision: c.precision,
        threads: c.threads,
        htp: {
          profile: c.htp_profile,
          vtcm_mb: c.vtcm_mb,
          require_accelerator: c.require_accelerator,
          ...(c.context_cache ? { context_cache: c.context_cache } : {}),
        },
      },
      {
        score: c.score_threshold,
        iou: c.iou_threshold,
        maxDetections: c.max_detections,
        ...(c.classes.length ? { classes: classIdsByName(c.model, c.classes) } : {}),
      },
    );
    const task = pipeline.manifest.task;
    if (this.requiredTask && task !== this.requiredTask) {
      pipeline.dispose();
      throw new ConfigError(
        `${c.model}: this node needs a ${this.requiredTask} model, this one is ${task}`,
      );
    }
    this.pipeline = pipeline;
    if (pipeline.needsPersonBoxes) await this.loadPersonDetector();
    this.createOutputs(task);
    const report = pipeline.providerReport;
    this.node
      .getLogger()
      .info(
        `model ${pipeline.name} (${c.precision}) on ${c.provider}: nodes by provider ${JSON.stringify(report.nodesByProvider)}${report.note ? ` (${report.note})` : ''}`,
      );
    this.labelPub?.publish(
      labelInfo(
        { stamp: stampNow(this.node), frameId: '' },
        pipeline.manifest.classNames,
        c.score_threshold,
      ) as never,
    );
  }

  /** Top-down pose (HRNet) runs on the boxes of a detector model, given by `person_detector`. */
  private async loadPersonDetector(): Promise<void> {
    const c = this.config;
    if (!c.person_detector) {
      throw new ConfigError(
        `${c.model}: a top-down pose model needs the person_detector parameter (a detect model manifest)`,
      );
    }
    const d = await ModelPipeline.load(
      c.person_detector,
      { provider: c.provider, precision: c.precision, threads: c.threads },
      { score: c.score_threshold, iou: c.iou_threshold, maxDetections: c.max_detections },
    );
    if (d.manifest.task !== 'detect') {
      d.dispose();
      throw new ConfigError(
        `${c.person_detector}: person_detector must be a detect model, this one is ${d.manifest.task}`,
      );
    }
    this.personDetector = d;
  }

  private createOutputs(task: Task): void {
    const rcl = this.rcl;
    const out = { qos: makeQos(rcl, 'reliable', 5) };
    if (task === 'detect' || task === 'segment') {
      this.detPub = this.node.createPublisher(
        'vision_msgs/msg/Detection2DArray',
        '~/detections',
        out,
      );
    }
    if (task !== 'pose') {
      const latched = makeQos(rcl, 'reliable', 1);
      latched.durability = rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL;
      this.labelPub = this.node.createPublisher('vision_msgs/msg/LabelInfo', '~/labels', {
        qos: latched,
      });
    }
    if (task === 'pose') {
      this.posePub = this.node.createPublisher(
        'htp_perception/msg/PersonPoseArray',
        '~/poses',
        out,
      );
    }
    if (task === 'segment' || task === 'semantic') {
      this.maskPub = this.node.createPublisher(
        'sensor_msgs/msg/Image',
        task === 'segment' ? '~/instances' : '~/segmentation',
        out,
      );
    }
  }

  start(): void {
    const c = this.config;
    this.intake = new ImageIntake(
      this.rcl,
      this.node,
      {
        topic: c.input_transport === 'raw' ? 'image' : 'image/compressed',
        transport: c.input_transport,
        qos: c.input_qos,
      },
      (f) => this.mailbox.post(f),
      (e) => this.node.getLogger().warn(`dropped a bad frame: ${e.message}`),
    );
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.mailbox.close();
    await this.loop;
    this.pipeline?.dispose();
    this.personDetector?.dispose();
  }

  private async run(): Promise<void> {
    const pipeline = this.pipeline;
    if (!pipeline) throw new Error('PerceptionNode.start() before configure()');
    for (;;) {
      const item = await this.mailbox.take();
      if (!item) return;
      try {
        const frame = await toEngineFrame(item);
        const boxes = await this.personBoxes(frame);
        const r = await pipeline.run(frame, boxes);
        this.inferenceMs.push(r.timings.inferenceMs);
        if (this.inferenceMs.length > 300) this.inferenceMs.splice(0, 100);
        const header = item.frame.header;
        this.publishResult(r, header, frame.width, frame.height);
        this.processed++;
        await this.publishAnnotated(frame, r, header);
      } catch (e) {
        // A frame the engine or decoder refuses is counted and reported; the node carries on.
        this.failed++;
        this.lastFailure = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        this.node.getLogger().warn(`frame not processed: ${this.lastFailure}`);
      }
    }
  }

  private async personBoxes(frame: Frame): Promise<Box[]> {
    if (!this.personDetector) return [];
    const r = await this.personDetector.run(frame);
    return r.task === 'detect' ? r.detections.map((d) => d.box) : [];
  }

  private publishResult(r: PipelineResult, header: RosHeader, width: number, height: number): void {
    switch (r.task) {
      case 'detect':
        this.detPub?.publish(detection2DArray(header, r.detections) as never);
        return;
      case 'segment': {
        this.detPub?.publish(detection2DArray(header, r.instances) as never);
        const ids = buildInstanceIdImage(
          r.instances.map((i) => i.mask),
          width,
          height,
        );
        const data = new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength);
        this.maskPub?.publish(
          encodeImage({
            header,
            height,
            width,
            encoding: 'mono16',
            isBigEndian: !LITTLE_ENDIAN,
            step: width * 2,
            data,
          }),
        );
        return;
      }
      case 'pose':
        this.posePub?.publish(personPoseArray(header, r.poses) as never);
        return;
      case 'semantic':
        this.maskPub?.publish(
          encodeImage({
            header,
            height: r.map.height,
            width: r.map.width,
            encoding: 'mono8',
            step: r.map.width,
            data: r.map.data,
          }),
        );
        return;
    }
  }

  private async publishAnnotated(
    frame: Frame,
    r: PipelineResult,
    header: RosHeader,
  ): Promise<void> {
    const wantRaw = this.node.countSubscribers(this.annotatedPub.topic) > 0;
    const wantJpeg = this.node.countSubscribers(this.annotatedJpegPub.topic) > 0;
    if (!wantRaw && !wantJpeg) return;
    const pipeline = this.pipeline!;
    if (!ANNOTATABLE.has(frame.encoding)) {
      // Detections were published; only the picture for operators is skipped.
      if (!this.warnedAnnotation) {
        this.node.getLogger().warn(`no annotated image for ${frame.encoding} input yet`);
      }
      this.warnedAnnotation = true;
      return;
    }
    const rgb = frame.encoding === 'rgb8' && frame.step === frame.width * 3 ? frame : toRgb(frame);
    const annotation = resultAnnotation(r, pipeline.manifest, rgb.width, rgb.height);
    if (wantJpeg) {
      const jpeg = await renderAnnotated(rgb, annotation, 'jpeg', this.config.jpeg_quality);
      this.annotatedJpegPub.publish(encodeCompressedImage({ header, format: 'jpeg', data: jpeg }));
    }
    if (wantRaw) {
      const data = await renderAnnotated(rgb, annotation, 'rgb8');
      this.annotatedPub.publish(
        encodeImage({
          header,
          height: rgb.height,
          width: rgb.width,
          encoding: 'rgb8',
          step: rgb.width * 3,
          data,
        }),
      );
    }
  }

  diagnostics(): DiagnosticReport {
    const now = performance.now();
    const dt = Math.max(1e-3, (now - this.lastReport.at) / 1000);
    const fps = (this.processed - this.lastReport.processed) / dt;
    this.lastReport = { at: now, processed: this.processed };
    const c = this.intake?.counters;
    const report = this.pipeline?.providerReport;
    let level = DIAG_OK;
    let message = `${fps.toFixed(1)} fps`;
    if (!this.pipeline) {
      level = DIAG_ERROR;
      message = 'model not loaded';
    } else if (c && c.incompatiblePublishers.length > 0) {
      level = DIAG_WARN;
      message = `incompatible publisher: ${c.incompatiblePublishers[0]}`;
    } else if (this.config.provider === 'htp' && report && !report.fullyAccelerated) {
      level = DIAG_WARN;
      message = `HTP requested but ${report.cpuNodes.length} graph nodes run on the CPU`;
    }
    const power = this.pipeline?.session.power;
    return {
      level,
      message,
      values: {
        model: this.pipeline?.name ?? this.config.model,
        requested_provider: this.config.provider,
        nodes_by_provider: JSON.stringify(report?.nodesByProvider ?? {}),
        fps: fps.toFixed(2),
        inference_ms_p50: this.inferenceMs.length
          ? percentile(this.inferenceMs, 50).toFixed(2)
          : '',
        received: c?.received ?? 0,
        rejected: c?.rejected ?? 0,
        dropped_stale: this.mailbox.dropped,
        processed: this.processed,
        failed: this.failed,
        last_failure: this.lastFailure,
        power_state: power?.state ?? '',
        power_votes_up: power?.votesUp ?? 0,
        power_vote_failures: power?.voteFailures ?? 0,
      },
    };
  }
}

/** The `classes` parameter names classes; the head filters by index in the model's list. */
function classIdsByName(manifestPath: string, names: readonly string[]): number[] {
  const known = loadModelManifest(manifestPath).classNames;
  return names.map((n) => {
    const i = known.indexOf(n);
    if (i < 0)
      throw new ConfigError(
        `detector parameter classes: '${n}' is not a class of ${manifestPath} (${known.join(', ')})`,
      );
    return i;
  });
}

async function toEngineFrame(item: IntakeFrame): Promise<Frame> {
  if (item.kind === 'raw') {
    const f = item.frame;
    return { data: f.data, width: f.width, height: f.height, step: f.step, encoding: f.encoding };
  }
  const { data, info } = await sharp(item.frame.data)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, step: info.width * 3, encoding: 'rgb8' };
}

// Typed arrays use the machine's byte order; mono16 messages say which one that is.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const ANNOTATABLE = new Set<Frame['encoding']>(['rgb8', 'bgr8', 'rgba8', 'bgra8', 'mono8']);

/** Packed rgb8 copy of an 8-bit RGB/BGR(A)/mono frame, for drawing. */
function toRgb(frame: Frame): Frame {
  const channels = frame.encoding === 'mono8' ? 1 : frame.encoding.endsWith('a8') ? 4 : 3;
  const out = Buffer.alloc(frame.width * frame.height * 3);
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const s = y * frame.step + x * channels;
      const d = (y * frame.width + x) * 3;
      const bgr = frame.encoding.startsWith('bgr');
      const a = frame.data[s]!;
      const b = channels === 1 ? a : frame.data[s + 1]!;
      const c = channels === 1 ? a : frame.data[s + 2]!;
      out[d] = bgr ? c : a;
      out[d + 1] = b;
      out[d + 2] = bgr ? a : c;
    }
  }
  return {
    data: out,
    width: frame.width,
    height: frame.height,
    step: frame.width * 3,
    encoding: 'rgb8',
  };
}

/** Runs a PerceptionNode as a process: `--help` without ROS, clean shutdown on SIGINT/SIGTERM. */
export async function runPerceptionNode(
  name: string,
  summary: string,
  requiredTask?: Task,
): Promise<void> {
  if (wantsHelp(process.argv)) {
    printHelp(name, summary, PERCEPTION_DEFAULTS, [
      'in:  image (sensor_msgs/Image) or image/compressed',
      'out: by the model task: ~/detections (vision_msgs/Detection2DArray), ~/labels (LabelInfo,',
      '     transient local), ~/poses (htp_perception/PersonPoseArray), ~/instances (mono16),',
      '     ~/segmentation (mono8); ~/annotated and ~/annotated/compressed (JPEG) only while',
      '     subscribed; /diagnostics',
    ]);
    return;
  }
  const rcl = loadRclnodejs();
  await rcl.init();
  const perception = new PerceptionNode(rcl, name, requiredTask);
  await perception.configure();
  perception.start();
  perception.node.spin();
  const shutdown = (): void => {
    void perception.stop().then(() => {
      perception.node.destroy();
      rcl.shutdown();
      process.exit(0);
    });
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (require.main === module) {
  runMain(() =>
    runPerceptionNode(
      'perception',
      'detection, pose or segmentation on a camera topic (CPU or Hexagon HTP)',
    ),
  );
}
