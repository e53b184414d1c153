import { performance } from 'node:perf_hooks';
import { checkManifestAgainstModel, IntrospectedTensor } from '../config/checkManifestAgainstModel';
import { ModelManifest, requireModelFiles } from '../config/modelManifest';
import { resolveModelManifest } from '../model/resolveModelManifest';
import { ConfigError } from '../core/configError';
import { EngineSession, ProviderReport, RunTimings, TensorInfo } from '../engine/engineSession';
import { nativeOutputKernels } from '../engine/outputKernels';
import type { OutputKernels } from '../core/outputKernels';
import { Frame, Roi } from '../core/frame';
import type { Tensor } from '../core/tensor';
import type { Box, PersonPose } from '../core/headResults';
import { decodeYoloDetections } from '../heads/decodeYoloDetections';
import { decodeYoloPose } from '../heads/decodeYoloPose';
import { decodeYoloSegmentation } from '../heads/decodeYoloSegmentation';
import { decodeHrnetHeatmaps } from '../heads/decodeHrnetHeatmaps';
import { decodeDeeplab } from '../heads/decodeDeeplab';
import { decodeBlazePoseLandmarks } from '../heads/decodeBlazePoseLandmarks';
import { decodeSemanticProbability } from '../heads/decodeSemanticProbability';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import type { YoloOutputs } from '../heads/yoloCandidateSource';
import type { PipelineResult, Skeleton, StageTimings } from '../core/pipelineResult';
import type { RuntimeChoices } from './runtimeChoices';
import { InputFeed, prepareEngineOptions } from './quantizedInputModel';
import { checkHtpContext, selectHtpContext } from './selectHtpContext';
import { verifyModelChecksum } from './verifyModelChecksum';
import { KeypointLayout, keypointLayout } from './keypointLayout';
import type { KeypointSet } from '../config/keypointSets';
import { withFields } from '../core/withFields';

export interface Thresholds {
  /** Keep detections scoring above this (YOLO heads). */
  readonly score: number;
  /** NMS IoU threshold. */
  readonly iou: number;
  readonly maxDetections: number;
  /** Only these class ids (undefined: all). */
  readonly classes?: readonly number[];
  /** Probability maps (selfie segmentation): a pixel is the class from this probability up. */
  readonly probability?: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { score: 0.25, iou: 0.7, maxDetections: 300 };

/** A BlazePose crop whose person-present output is below this holds no person (MediaPipe's). */
export const BLAZEPOSE_PERSON_THRESHOLD = 0.5;
const DEFAULT_PROBABILITY_THRESHOLD = 0.5;

function byName(outputs: readonly Tensor[], name: string, model: string): Tensor {
  const t = outputs.find((o) => o.name === name);
  if (!t) throw new ConfigError(`${model}: the model produced no output named '${name}'`);
  return t;
}

/**
 * One model, ready to run: its manifest, an engine session configured from it, and the head that
 * decodes its outputs into results in source-image pixels.
 */
export class ModelPipeline {
  private constructor(
    readonly manifest: ModelManifest,
    readonly session: EngineSession,
    private currentThresholds: Thresholds,
    /** Whether an INT8 graph takes quantized bytes from the preprocessing, or why not. */
    readonly inputFeed: InputFeed,
    /** The keypoints its pose results carry (empty for other tasks). */
    readonly keypoints: KeypointLayout,
  ) {}

  /** The heads' whole-tensor loops, run by the addon (same results as the heads' own). */
  private readonly kernels: OutputKernels = nativeOutputKernels();

  get thresholds(): Thresholds {
    return this.currentThresholds;
  }

  /** New thresholds apply from the next run (live parameters). */
  setThresholds(t: Thresholds): void {
    this.currentThresholds = t;
  }

  /**
   * Loads the manifest (or derives it from an Ultralytics `.onnx`, see resolveModelManifest) and
   * the model; fails naming the file and field when they disagree.
   */
  static async load(
    manifestPath: string,
    choices: RuntimeChoices,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    keypointSet: KeypointSet = 'coco17',
  ): Promise<ModelPipeline> {
    const manifest = resolveModelManifest(manifestPath);
    requireModelFiles(manifest);
    verifyModelChecksum(manifest, choices.precision, choices.allowModelMismatch === true);
    const context = selectHtpContext(manifest, choices);
    if (context) checkHtpContext(manifest, context);
    const prepared = await prepareEngineOptions(manifest, choices);
    let session: EngineSession;
    try {
      session = await EngineSession.load(prepared.options);
    } finally {
      prepared.release();
    }
    try {
      checkManifestAgainstModel(
        prepared.manifest,
        {
          inputs: session.inputs.map(introspected),
          outputs: session.outputs.map(introspected),
        },
        manifestPath,
      );
    } catch (e) {
      session.dispose();
      throw e;
    }
    return new ModelPipeline(
      manifest,
      session,
      thresholds,
      prepared.feed,
      keypointLayout(manifest, keypointSet),
    );
  }

  get name(): string {
    return this.manifest.name;
  }

  get providerReport(): ProviderReport {
    return this.session.providerReport;
  }

  /** Top-down pose models (HRNet, BlazePose) need the person boxes a detector found. */
  get needsPersonBoxes(): boolean {
    const f = this.manifest.outputs.format;
    return f === 'heatmaps' || f === 'blazepose-landmarks';
  }

  async run(frame: Frame, personBoxes: readonly Box[] = []): Promise<PipelineResult> {
    const started = performance.now();
    const m = this.manifest;
    const o = m.outputs;
    if (o.format === 'heatmaps' || o.format === 'blazepose-landmarks')
      return this.runTopDown(frame, personBoxes, started);
    // Every field in one literal, the decoders' own added by withFields (one hidden class each).
    const sel = {
      scoreThreshold: this.thresholds.score,
      iouThreshold: this.thresholds.iou,
      maxDetections: this.thresholds.maxDetections,
      classes: this.thresholds.classes,
      bestClasses: this.kernels.yoloBestClasses,
    };
    const r = await this.session.run(frame);
    const headStart = performance.now();
    const timings = (): StageTimings =>
      stageTimings([r.timings], headStart - started, performance.now() - headStart, started);
    if (o.format === 'semantic-logits' || o.format === 'semantic-argmax') {
      const t = byName(
        r.outputs,
        o.format === 'semantic-logits' ? o.logits.name : o.mask.name,
        m.name,
      );
      const map = decodeDeeplab(t, r.transform, {
        remapLabels: this.kernels.remapLabels,
        zeroedBytes: this.kernels.zeroedBytes,
        format: o.format === 'semantic-logits' ? 'logits' : 'labels',
        ...(o.format === 'semantic-logits' ? { layout: o.logits.layout } : {}),
      });
      return { task: 'semantic', map, timings: timings() };
    }
    if (o.format === 'semantic-probability') {
      const map = decodeSemanticProbability(
        byName(r.outputs, o.probability.name, m.name),
        r.transform,
        this.thresholds.probability ?? DEFAULT_PROBABILITY_THRESHOLD,
        o.probability.layout,
        { remapLabels: this.kernels.remapLabels, zeroedBytes: this.kernels.zeroedBytes },
      );
      return { task: 'semantic', map, timings: timings() };
    }
    const normalized = o.boxes.units === 'normalized';
    // End-to-end exports (NMS inside the model): the same heads, which then skip their own NMS.
    const yolo: YoloOutputs =
      o.format === 'ultralytics-packed'
        ? {
            format: 'ultralytics',
            output: byName(r.outputs, o.predictions.name, m.name),
            anchorsFirst: o.predictions.layout === 'anchors-first',
          }
        : o.format === 'ultralytics-end2end'
          ? { format: 'end2end', output: byName(r.outputs, o.predictions.name, m.name) }
          : {
              format: 'aihub',
              boxes: byName(r.outputs, o.boxesTensor.name, m.name),
              scores: byName(r.outputs, o.scores.name, m.name),
              classIdx: byName(r.outputs, o.classIdx.name, m.name),
            };
    if (m.task === 'pose') {
      if (yolo.format === 'aihub')
        throw new ConfigError(`${m.name}: YOLOv8 pose needs an Ultralytics output`);
      const poses = decodeYoloPose(
        yolo.output,
        r.transform,
        withFields(sel, {
          numKeypoints: m.keypoints?.names.length,
          anchorsFirst: yolo.format === 'ultralytics' && (yolo.anchorsFirst ?? false),
          endToEnd: yolo.format === 'end2end',
          coordinatesNormalized: normalized,
        }),
      );
      const { poses: kept, skeleton } = this.published(poses);
      return { task: 'pose', poses: kept, skeleton, timings: timings() };
    }
    if (m.task === 'segment') {
      const protosSpec = o.format === 'aihub-split' ? o.maskProtos : o.protos;
      if (!protosSpec)
        throw new ConfigError(`${m.name}: a segmentation manifest must name its prototypes`);
      const instances = decodeYoloSegmentation(
        {
          detections: yolo,
          protos: byName(r.outputs, protosSpec.name, m.name),
          protosLayout: protosSpec.layout,
          ...(o.format === 'aihub-split' && o.maskCoeffs
            ? { maskCoefficients: byName(r.outputs, o.maskCoeffs.name, m.name) }
            : {}),
        },
        r.transform,
        withFields(sel, { numClasses: m.classNames.length, boxesNormalized: normalized }),
      );
      return { task: 'segment', instances, timings: timings() };
    }
    const detections = decodeYoloDetections(
      yolo,
      r.transform,
      withFields(sel, {
        numClasses: yolo.format === 'aihub' ? undefined : m.classNames.length,
        boxesNormalized: normalized,
      }),
    );
    return { task: 'detect', detections, timings: timings() };
  }

  /**
   * Top-down pose (HRNet, BlazePose): one engine run per person on the crop the planner chose
   * (the box widened to the network's aspect ratio and padded by 1.25: HRNet's recipe, and the
   * square x1.25 region MediaPipe crops around a person). The engine warps that region onto the
   * input with the image's outside as black border ('pad' ROI), so a person at the image edge is
   * not stretched; its transform maps the keypoints back exactly. MediaPipe also rotates its crop
   * so the hips-to-shoulders line is upright; a detector box has no such line, so crops stay
   * axis-aligned (BlazePose was trained on rotated crops: a lying person costs accuracy).
   */
  private async runTopDown(
    frame: Frame,
    boxes: readonly Box[],
    started: number,
  ): Promise<PipelineResult> {
    const m = this.manifest;
    const o = m.outputs;
    if (o.format !== 'heatmaps' && o.format !== 'blazepose-landmarks')
      throw new Error('unreachable');
    const numKeypoints = m.keypoints?.names.length;
    const poses: PersonPose[] = [];
    const runTimings: RunTimings[] = [];
    // Every crop of the frame first, then one engine call for them all: one hand-over to the
    // worker per frame instead of one per person.
    const crops: { box: Box; region: Roi }[] = [];
    for (const box of boxes) {
      // The planner rejects a box with no extent or a non-finite corner: nothing to crop.
      if (
        !Number.isFinite(box.x1 + box.y1 + box.x2 + box.y2) ||
        (box.x2 <= box.x1 && box.y2 <= box.y1)
      )
        continue;
      const plan = planHrnetCrop(box, frame.width, frame.height, {
        inputWidth: m.input.width,
        inputHeight: m.input.height,
      });
      const { x, y, width, height } = plan.region;
      // A box wholly outside the frame (a detector in another resolution) has nothing to see.
      if (x >= frame.width || y >= frame.height || x + width <= 0 || y + height <= 0) continue;
      crops.push({ box, region: { x, y, width, height, outside: 'pad' } });
    }
    const e0 = performance.now();
    const runs = await this.session.runMany(
      frame,
      crops.map((c) => c.region),
    );
    const h0 = performance.now();
    for (const [i, r] of runs.entries()) {
      const box = crops[i]!.box;
      runTimings.push(r.timings);
      if (o.format === 'blazepose-landmarks') {
        const found = decodeBlazePoseLandmarks(
          byName(r.outputs, o.landmarks.name, m.name),
          byName(r.outputs, o.personScore.name, m.name),
          r.transform,
          numKeypoints ?? 33,
        );
        // The crop holds no person by the model's own judgement (a detector's false positive).
        if (found.personScore < BLAZEPOSE_PERSON_THRESHOLD) continue;
        // The very box object it was given: trackResult finds the person's track id by it.
        poses.push({ box, classId: 0, score: found.personScore, keypoints: found.keypoints });
        continue;
      }
      const [keypoints] = decodeHrnetHeatmaps(
        byName(r.outputs, o.heatmaps.name, m.name),
        [r.transform],
        {
          layout: o.heatmaps.layout,
          numKeypoints,
          planePeaks: this.kernels.planePeaks,
          peaks: r.channelPeaks,
        },
      );
      const scores = (keypoints ?? []).map((k) => k.score);
      poses.push({
        box,
        classId: 0,
        score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0,
        keypoints: keypoints ?? [],
      });
    }
    return {
      task: 'pose',
      ...this.published(poses),
      timings: stageTimings(runTimings, h0 - e0, performance.now() - h0, started),
    };
  }

  /** Poses with the keypoints this pipeline publishes (keypoint_set), and their skeleton. */
  private published(poses: PersonPose[]): { poses: PersonPose[]; skeleton: Skeleton } {
    const { pick, skeleton } = this.keypoints;
    if (!pick) return { poses, skeleton };
    return {
      poses: poses.map((p) => ({ ...p, keypoints: pick.map((i) => p.keypoints[i]!) })),
      skeleton,
    };
  }

  dispose(): void {
    this.session.dispose();
  }

  /** dispose() once the run in flight, if any, has settled. */
  disposeWhenIdle(): Promise<void> {
    return this.session.disposeWhenIdle();
  }
}

function introspected(t: TensorInfo): IntrospectedTensor {
  return { name: t.name, dims: t.dims, type: t.type };
}

function stageTimings(
  runs: readonly RunTimings[],
  engineMs: number,
  headMs: number,
  started: number,
): StageTimings {
  return {
    preprocessMs: runs.reduce((a, r) => a + r.preprocessMs, 0),
    inferenceMs: runs.reduce((a, r) => a + r.inferenceMs, 0),
    queueMs: runs.reduce((a, r) => a + r.queueMs, 0),
    engineMs,
    headMs,
    totalMs: performance.now() - started,
    runs: runs.length,
  };
}
