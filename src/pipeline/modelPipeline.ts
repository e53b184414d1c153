import { performance } from 'node:perf_hooks';
import { checkManifestAgainstModel, IntrospectedTensor } from '../config/checkManifestAgainstModel';
import { ModelManifest, requireModelFiles } from '../config/modelManifest';
import { resolveModelManifest } from '../model/resolveModelManifest';
import {
  EngineSession,
  ProviderReport,
  RunResult,
  RunTimings,
  TensorInfo,
} from '../engine/engineSession';
import { nativeOutputKernels } from '../engine/outputKernels';
import type { OutputKernels } from '../core/outputKernels';
import { Frame, Roi } from '../core/frame';
import type { Box, PersonPose } from '../core/headResults';
import type { Thresholds } from '../core/thresholds';
import type { DecodeContext, OutputFormat } from '../families/modelFamily';
import { outputFormat } from '../families/registry';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import type { PipelineResult, Skeleton, StageTimings } from '../core/pipelineResult';
import type { RuntimeChoices } from './runtimeChoices';
import { InputFeed, prepareEngineOptions } from './quantizedInputModel';
import { checkHtpContext, selectHtpContext } from './selectHtpContext';
import { verifyModelChecksum } from './verifyModelChecksum';
import { KeypointLayout, keypointLayout } from './keypointLayout';
import type { KeypointSet } from '../config/keypointSets';

export type { Thresholds };

export const DEFAULT_THRESHOLDS: Thresholds = { score: 0.25, iou: 0.7, maxDetections: 300 };

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
  ) {
    this.format = outputFormat(manifest.outputs);
  }

  /** The manifest's output format (its family's decode step), looked up once, not per frame. */
  private readonly format: OutputFormat;

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
    requireModelFiles(manifest, choices.precision);
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
          inputs: session.inputs.map((t) => introspected(t, session.batch)),
          outputs: session.outputs.map((t) => introspected(t, session.batch)),
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
    return this.format.decodeCrop !== undefined;
  }

  /** What the manifest's output format decodes with: this frame's thresholds, the fast loops. */
  private decodeContext(): DecodeContext {
    return { manifest: this.manifest, thresholds: this.thresholds, kernels: this.kernels };
  }

  async run(frame: Frame, personBoxes: readonly Box[] = []): Promise<PipelineResult> {
    const started = performance.now();
    if (this.format.decodeCrop) return this.runTopDown(frame, personBoxes, started);
    const r = await this.session.run(frame);
    return this.decodeWhole(r, started, performance.now() - started);
  }

  /** Images one batched run takes (the manifest's input.batch); 1 for a model of batch 1. */
  get batch(): number {
    return this.session.batch;
  }

  /**
   * Whole frames (up to `batch`, e.g. one per camera) as one run of the model; a result per frame,
   * in order, each decoded by the head from its own slot of the outputs. Top-down models run on
   * person crops, not whole frames: they take run().
   */
  async runBatch(frames: readonly Frame[]): Promise<PipelineResult[]> {
    if (this.format.decodeCrop) {
      throw new Error(
        `${this.name}: a top-down pose model runs on person crops, not batched frames`,
      );
    }
    const started = performance.now();
    const runs = await this.session.runBatch(frames);
    const engineMs = performance.now() - started;
    return runs.map((r) => this.decodeWhole(r, started, engineMs));
  }

  /** A whole-frame run's outputs through the manifest's head. */
  private decodeWhole(r: RunResult, started: number, engineMs: number): PipelineResult {
    const o = this.manifest.outputs;
    const format = this.format;
    if (!format.decode) throw new Error(`output format ${o.format} has no decoder`);
    const headStart = performance.now();
    const head = format.decode(o, r, this.decodeContext());
    const timings = (): StageTimings =>
      stageTimings([r.timings], engineMs, performance.now() - headStart, started);
    // One literal per task: a spread adding `timings` would give each result a class of its own.
    switch (head.task) {
      case 'detect':
        return { task: 'detect', detections: head.detections, timings: timings() };
      case 'pose': {
        const { poses, skeleton } = this.published(head.poses);
        return { task: 'pose', poses, skeleton, timings: timings() };
      }
      case 'segment':
        return { task: 'segment', instances: head.instances, timings: timings() };
      case 'semantic':
        return { task: 'semantic', map: head.map, timings: timings() };
    }
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
    const format = this.format;
    if (!format.decodeCrop) throw new Error(`output format ${o.format} is not top-down`);
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
    const ctx = this.decodeContext();
    for (const [i, r] of runs.entries()) {
      const box = crops[i]!.box;
      runTimings.push(r.timings);
      const found = format.decodeCrop(o, r, ctx);
      if (found === undefined) continue;
      // The very box object it was given: trackResult finds the person's track id by it.
      poses.push({ box, classId: 0, score: found.score, keypoints: found.keypoints });
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

/**
 * A tensor as the manifest describes it: per image. A batched session's leading axis holds its
 * batch (the engine checked every output has it), and the head sees one image's slot.
 */
function introspected(t: TensorInfo, batch: number): IntrospectedTensor {
  const dims = batch > 1 && t.dims.length > 0 ? [1, ...t.dims.slice(1)] : t.dims;
  return { name: t.name, dims, type: t.type };
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
