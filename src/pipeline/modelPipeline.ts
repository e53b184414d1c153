import { performance } from 'node:perf_hooks';
import { checkManifestAgainstModel, IntrospectedTensor } from '../config/checkManifestAgainstModel';
import { ModelManifest, requireModelFiles } from '../config/modelManifest';
import { resolveModelManifest } from '../model/resolveModelManifest';
import { ConfigError } from '../core/configError';
import { EngineSession, ProviderReport, RunTimings, TensorInfo } from '../engine/engineSession';
import { Frame } from '../core/frame';
import type { Tensor } from '../core/tensor';
import type { Box, PersonPose } from '../core/headResults';
import { decodeYoloDetections } from '../heads/decodeYoloDetections';
import { decodeYoloPose } from '../heads/decodeYoloPose';
import { decodeYoloSegmentation } from '../heads/decodeYoloSegmentation';
import { decodeHrnetHeatmaps } from '../heads/decodeHrnetHeatmaps';
import { decodeDeeplab } from '../heads/decodeDeeplab';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import type { YoloOutputs } from '../heads/yoloCandidateSource';
import type { PipelineResult, StageTimings } from '../core/pipelineResult';
import type { RuntimeChoices } from './runtimeChoices';
import { InputFeed, prepareEngineOptions } from './quantizedInputModel';
import { checkHtpContext, selectHtpContext } from './selectHtpContext';

export interface Thresholds {
  /** Keep detections scoring above this (YOLO heads). */
  readonly score: number;
  /** NMS IoU threshold. */
  readonly iou: number;
  readonly maxDetections: number;
  /** Only these class ids (undefined: all). */
  readonly classes?: readonly number[];
}

export const DEFAULT_THRESHOLDS: Thresholds = { score: 0.25, iou: 0.7, maxDetections: 300 };

function byName(outputs: readonly Tensor[], name: string, model: string): Tensor {
  const t = outputs.find((o) => o.name === name);
  if (!t) throw new ConfigError(`${model}: the model produced no output named '${name}'`);
  return t;
}

/**
 * Output formats a manifest can describe (`htp-perception model import` recognises them in MediaPipe
 * TFLite files) but no task head decodes yet: BlazePose landmarks and selfie probability maps.
 * Refused at load, naming the field, rather than decoded as something they are not.
 */
function refuseHeadless(m: ModelManifest): void {
  const f = m.outputs.format;
  if (f === 'blazepose-landmarks' || f === 'semantic-probability') {
    throw new ConfigError(
      `${m.manifestPath}: outputs.format ${f} (${m.family}) has no task head in this version: the manifest describes the model, no pipeline runs it yet`,
    );
  }
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
  ) {}

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
  ): Promise<ModelPipeline> {
    const manifest = resolveModelManifest(manifestPath);
    refuseHeadless(manifest);
    requireModelFiles(manifest);
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
    return new ModelPipeline(manifest, session, thresholds, prepared.feed);
  }

  get name(): string {
    return this.manifest.name;
  }

  get providerReport(): ProviderReport {
    return this.session.providerReport;
  }

  /** Top-down pose models (HRNet) need the person boxes a detector found in this frame. */
  get needsPersonBoxes(): boolean {
    return this.manifest.outputs.format === 'heatmaps';
  }

  async run(frame: Frame, personBoxes: readonly Box[] = []): Promise<PipelineResult> {
    const started = performance.now();
    const m = this.manifest;
    const o = m.outputs;
    const sel = {
      scoreThreshold: this.thresholds.score,
      iouThreshold: this.thresholds.iou,
      maxDetections: this.thresholds.maxDetections,
      ...(this.thresholds.classes ? { classes: this.thresholds.classes } : {}),
    };
    if (o.format === 'heatmaps') return this.runTopDown(frame, personBoxes, started);
    // Refused at load already; repeated so the formats below are only those a head decodes.
    if (o.format === 'blazepose-landmarks' || o.format === 'semantic-probability') {
      refuseHeadless(m);
      throw new ConfigError(`${m.name}: no task head for outputs.format ${o.format}`);
    }
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
        format: o.format === 'semantic-logits' ? 'logits' : 'labels',
        ...(o.format === 'semantic-logits' ? { layout: o.logits.layout } : {}),
      });
      return { task: 'semantic', map, timings: timings() };
    }
    const normalized = o.boxes.units === 'normalized';
    const yolo: YoloOutputs =
      o.format === 'ultralytics-packed'
        ? {
            format: 'ultralytics',
            output: byName(r.outputs, o.predictions.name, m.name),
            anchorsFirst: o.predictions.layout === 'anchors-first',
          }
        : {
            format: 'aihub',
            boxes: byName(r.outputs, o.boxesTensor.name, m.name),
            scores: byName(r.outputs, o.scores.name, m.name),
            classIdx: byName(r.outputs, o.classIdx.name, m.name),
          };
    if (m.task === 'pose') {
      if (yolo.format !== 'ultralytics')
        throw new ConfigError(`${m.name}: YOLOv8 pose needs the Ultralytics packed output`);
      const poses = decodeYoloPose(yolo.output, r.transform, {
        ...sel,
        numKeypoints: m.keypoints?.names.length,
        anchorsFirst: yolo.anchorsFirst ?? false,
        coordinatesNormalized: normalized,
      });
      return { task: 'pose', poses, timings: timings() };
    }
    if (m.task === 'segment') {
      const protosSpec = o.format === 'ultralytics-packed' ? o.protos : o.maskProtos;
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
        { ...sel, numClasses: m.classNames.length, boxesNormalized: normalized },
      );
      return { task: 'segment', instances, timings: timings() };
    }
    const detections = decodeYoloDetections(yolo, r.transform, {
      ...sel,
      numClasses: yolo.format === 'ultralytics' ? m.classNames.length : undefined,
      boxesNormalized: normalized,
    });
    return { task: 'detect', detections, timings: timings() };
  }

  /**
   * HRNet top-down: one engine run per person on the crop the planner chose (the box widened to
   * the network's aspect ratio and padded by 1.25). The engine warps that region onto the input
   * with the image's outside as black border ('pad' ROI), so a person at the image edge is not
   * stretched; its transform maps the heatmaps back exactly.
   */
  private async runTopDown(
    frame: Frame,
    boxes: readonly Box[],
    started: number,
  ): Promise<PipelineResult> {
    const m = this.manifest;
    if (m.outputs.format !== 'heatmaps') throw new Error('unreachable');
    const spec = m.outputs.heatmaps;
    const poses: PersonPose[] = [];
    const runTimings: RunTimings[] = [];
    let headMs = 0;
    let engineMs = 0;
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
      const e0 = performance.now();
      const r = await this.session.run(frame, { ...plan.region, outside: 'pad' });
      runTimings.push(r.timings);
      const h0 = performance.now();
      engineMs += h0 - e0;
      const [keypoints] = decodeHrnetHeatmaps(byName(r.outputs, spec.name, m.name), [r.transform], {
        layout: spec.layout,
        numKeypoints: m.keypoints?.names.length,
      });
      headMs += performance.now() - h0;
      const scores = (keypoints ?? []).map((k) => k.score);
      // The very box object it was given: trackResult finds the person's track id by it.
      poses.push({
        box,
        classId: 0,
        score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0,
        keypoints: keypoints ?? [],
      });
    }
    return { task: 'pose', poses, timings: stageTimings(runTimings, engineMs, headMs, started) };
  }

  dispose(): void {
    this.session.dispose();
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
