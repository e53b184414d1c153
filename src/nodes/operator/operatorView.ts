import type * as Rclnodejs from 'rclnodejs';
import { NODE_TOPICS, type OutputTopics } from '../../ros/outputTopics';
import { AnnotatedStream, AnnotatedStreamStats } from '../../annotate/annotatedStream';
import { resultAnnotation } from '../../annotate/resultAnnotation';
import { processorsLabel, StreamFigures } from '../../annotate/statusBadge';
import type { Frame } from '../../core/frame';
import type { PipelineResult } from '../../core/pipelineResult';
import type { PerceptionPipeline } from '../../pipeline/perceptionPipeline';
import type { PublishedResult } from '../../ros/imageAnnotations';
import type { RosHeader } from '../../ros/rosHeader';
import { AnnotatedOutput } from './annotatedOutput';
import { ImageAnnotationsOutput } from './imageAnnotationsOutput';
import { SegmentationColorOutput } from './segmentationColorOutput';
import type { WatchedPublisherStats } from '../../ros/watchedPublisher';
import { ConfigError } from '../../core/configError';
import type { VideoEncoderChoice } from '../../core/videoEncoders';
import { videoAddon } from '../../video/videoAddon';
import { VIDEO_TOPIC, VideoOutput, type VideoOutputStats } from './videoOutput';

export interface OperatorViewStats {
  readonly annotated: AnnotatedStreamStats;
  readonly segmentationColor: WatchedPublisherStats | undefined;
  /** ~/annotations; undefined for semantic models (no boxes to draw). */
  readonly annotations: WatchedPublisherStats | undefined;
  /** ~/annotated/foxglove; undefined where the node has no video (no addon: see videoProblem). */
  readonly video: VideoOutputStats | undefined;
  /** Why there is no video ('' when there is). */
  readonly videoProblem: string;
  /** What the badge says runs the models now (CPU, HTP, HTP partial n/m nodes). */
  readonly processor: string;
}

/**
 * What people look at, beside the result messages: Foxglove's image annotations, the annotated
 * picture (with a badge saying where the model runs, fps and latency) and, for semantic models,
 * the colour overlay. Fed after the results of a frame are published; each view costs nothing
 * while nobody watches it.
 */
export class OperatorView {
  private readonly output: AnnotatedOutput;
  private readonly stream: AnnotatedStream<RosHeader>;
  private readonly color: SegmentationColorOutput | undefined;
  private readonly annotations: ImageAnnotationsOutput | undefined;
  private readonly video: VideoOutput | undefined;
  private readonly videoProblem: string;
  private readonly figures = new StreamFigures();
  /** The badge's processor label and the models it was read from (they change on a fallback). */
  private processorOf: { readonly model: unknown; readonly label: string } | undefined;

  constructor(
    rcl: typeof Rclnodejs,
    node: Rclnodejs.Node,
    private readonly pipeline: PerceptionPipeline,
    onUndrawable: (encoding: string) => void,
    warn: (line: string) => void,
    private readonly topics: OutputTopics = NODE_TOPICS,
  ) {
    const video = openVideo(rcl, node, pipeline, warn, topics);
    this.video = video.output;
    this.videoProblem = video.problem;
    this.output = new AnnotatedOutput(rcl, node, topics, this.video);
    this.stream = new AnnotatedStream<RosHeader>(
      this.output,
      () => pipeline.frameOptions,
      onUndrawable,
    );
    const manifest = pipeline.model.manifest;
    this.color =
      pipeline.task === 'semantic' ? new SegmentationColorOutput(rcl, node, topics) : undefined;
    this.annotations =
      pipeline.task === 'semantic'
        ? undefined
        : new ImageAnnotationsOutput(
            rcl,
            node,
            {
              classNames: manifest.classNames,
              skeleton: pipeline.model.keypoints.skeleton.limbs,
            },
            topics,
          );
  }

  get stats(): OperatorViewStats {
    return {
      annotated: this.stream.stats,
      segmentationColor: this.color?.stats,
      annotations: this.annotations?.stats,
      video: this.video?.stats,
      videoProblem: this.videoProblem,
      processor: this.processor(),
    };
  }

  /** ~/annotations from the result message just published (no pixel work, so right after it). */
  annotate(sent: PublishedResult | undefined, width: number, height: number): void {
    this.annotations?.offer(sent, width, height);
  }

  /** `latencyMs`: from the image stamp to the publication of this frame's results. */
  show(frame: Frame, result: PipelineResult, header: RosHeader, latencyMs: number): void {
    this.figures.add(performance.now(), latencyMs);
    if (result.task === 'semantic') {
      this.color?.offer(
        frame,
        result.map,
        header,
        this.pipeline.frameOptions.segmentationColorOpacity,
      );
    }
    const manifest = this.pipeline.model.manifest;
    this.stream.offer(
      frame,
      () => ({
        ...resultAnnotation(result, manifest, frame.width, frame.height),
        badge: this.figures.badge(this.processor()),
      }),
      header,
    );
  }

  /**
   * Where the models run now: read again when the pipeline's models were replaced (the CPU after
   * the accelerator failed, see acceleratorRecovery.ts), so the badge never claims the HTP.
   */
  private processor(): string {
    const model = this.pipeline.model;
    if (this.processorOf?.model !== model) {
      this.processorOf = {
        model,
        label: processorsLabel(this.pipeline.models.map((m) => m.providerReport)),
      };
    }
    return this.processorOf.label;
  }

  /** Why `video_encoder` cannot become `choice` here ('' when it can). */
  videoEncoderProblem(choice: VideoEncoderChoice): string {
    if (this.video) return this.video.problem(choice);
    return choice === 'auto' ? '' : `video_encoder ${choice}: ${this.videoProblem}`;
  }

  /** The line the node logs at activation: which encoder makes the video, and why. */
  videoLine(): string {
    if (!this.video) return `no ${this.topics(VIDEO_TOPIC)}: ${this.videoProblem}`;
    const e = this.video.encoder;
    return `${this.topics(VIDEO_TOPIC)} (H.264) encodes with ${e.label}${e.reason ? ` (${e.reason})` : ''}, while subscribed`;
  }

  /** Resolves when nothing is being drawn or encoded (deactivate waits for it). */
  async idle(): Promise<void> {
    await this.stream.idle();
    await this.video?.idle();
  }

  async destroy(): Promise<void> {
    await this.video?.destroy();
    this.output.destroy();
    this.color?.destroy();
    this.annotations?.destroy();
  }
}

/**
 * The video output, or why there is none: without the video addon a node with `video_encoder:
 * auto` runs without video (said in the log and diagnostics); one that asked for an encoder by
 * name is refused at configure, as is `v4l2` where no device is found.
 */
function openVideo(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  pipeline: PerceptionPipeline,
  warn: (line: string) => void,
  topics: OutputTopics,
): { output: VideoOutput | undefined; problem: string } {
  const loaded = videoAddon();
  const choice = pipeline.frameOptions.video.encoder;
  if ('problem' in loaded) {
    if (choice !== 'auto') throw new ConfigError(`video_encoder ${choice}: ${loaded.problem}`);
    return { output: undefined, problem: loaded.problem };
  }
  return {
    output: new VideoOutput(rcl, node, loaded.addon, () => pipeline.frameOptions, warn, topics),
    problem: '',
  };
}
