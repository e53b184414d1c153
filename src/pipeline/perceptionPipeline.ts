import { ConfigError } from '../core/configError';
import type { ModelManifest } from '../config/modelManifest';
import type { FrameOptions, PerceptionConfig } from '../config/perceptionConfig';
import { requireModelReference } from '../config/modelSearchPath';
import type { Frame } from '../core/frame';
import type { Detection } from '../core/headResults';
import { ModelPipeline, Thresholds } from './modelPipeline';
import { PipelineResult } from '../core/pipelineResult';
import type { RuntimeChoices } from './runtimeChoices';
import { personClassIds, personDetections } from './topDownPose';
import { carryPersonIds, trackPersons, trackResult } from './trackResult';
import { ByteTracker, type TrackState } from '../tracking/byteTracker';

export type Task = ModelManifest['task'];

/** Person detections handed to a top-down pose pipeline, with the classes they are indices of. */
export interface PersonInput {
  readonly detections: readonly Detection[];
  readonly classNames: readonly string[];
  /** Who found them (a model name), for error messages. */
  readonly detector: string;
}

export interface FrameTimings {
  /** Summed over every engine run of the frame (person detector and one HRNet run per person). */
  readonly preprocessMs: number;
  readonly inferenceMs: number;
  readonly queueMs: number;
  /** Engine calls from run() to the result in hand (queue, preprocess, inference, return). */
  readonly engineMs: number;
  readonly headMs: number;
}

export interface FrameOutcome {
  /** With tracking on, its detections, instances and poses carry track ids. */
  readonly result: PipelineResult;
  readonly timings: FrameTimings;
}

/**
 * What one perception node runs on each frame: its model and, for a top-down pose model fed by
 * its own detector, the person detector. Every model of the node runs on the node's provider with
 * its HTP options; per-frame options (thresholds, class filters) change between frames.
 */
export class PerceptionPipeline {
  private personIds: ReadonlySet<number> = new Set();
  private personIdsFor: readonly string[] | undefined;
  private options: FrameOptions;
  /**
   * While tracking, one tracker per camera ('' for a node's single camera): each camera's boxes
   * are in its own pixels and its objects its own, so tracks never cross cameras.
   */
  private readonly trackers = new Map<string, ByteTracker>();

  /** `camera`'s live tracks by state while tracking is on, else undefined. */
  trackCounts(camera = ''): Readonly<Record<TrackState, number>> | undefined {
    if (!this.options.tracking) return undefined;
    return this.trackers.get(camera)?.counts ?? { tracked: 0, lost: 0, tentative: 0 };
  }

  /** `camera`'s tracker while tracking is on, made on its first frame. */
  private trackerOf(camera: string): ByteTracker | undefined {
    const o = this.options.tracking;
    if (!o) return undefined;
    let t = this.trackers.get(camera);
    if (!t) this.trackers.set(camera, (t = new ByteTracker(o)));
    return t;
  }

  private constructor(
    private current: LoadedModels,
    private readonly config: PerceptionConfig,
    private readonly requiredTask: Task | undefined,
    options: FrameOptions,
  ) {
    this.options = options;
  }

  /** The node's model (after reloadModels, the one loaded last). */
  get model(): ModelPipeline {
    return this.current.model;
  }

  /** The person detector a top-down pose model runs first, if it has its own. */
  get personDetector(): ModelPipeline | undefined {
    return this.current.detector;
  }

  /** Where the models run now: the configured provider, or the CPU after reloadModels('cpu'). */
  get provider(): 'cpu' | 'htp' | 'gpu' {
    return this.current.provider;
  }

  /**
   * Loads the node's models; a missing, corrupt or mismatched model, a wrong task or a class name
   * the model does not have fails here with a ConfigError naming it.
   */
  static async load(
    c: PerceptionConfig,
    options: FrameOptions,
    requiredTask?: Task,
  ): Promise<PerceptionPipeline> {
    const models = await loadModels(c, c.provider, requiredTask);
    try {
      const p = new PerceptionPipeline(models, c, requiredTask, options);
      p.setFrameOptions(options);
      return p;
    } catch (e) {
      for (const m of modelsOf(models)) m.dispose();
      throw e;
    }
  }

  /**
   * Loads the models again, on `provider` (the CPU after the accelerator failed) or the configured
   * one, and puts them in place of the current ones, which it returns for the caller to free once
   * their runs are done (disposeWhenIdle). Tracks and per-frame options carry over; on failure
   * the current models stay.
   */
  async reloadModels(
    provider: 'cpu' | 'htp' | 'gpu' = this.config.provider,
  ): Promise<ModelPipeline[]> {
    const next = await loadModels(this.config, provider, this.requiredTask);
    const old = this.models.slice();
    this.current = next;
    this.setFrameOptions(this.options);
    return old;
  }

  get task(): Task {
    return this.model.manifest.task;
  }

  get name(): string {
    return this.model.name;
  }

  /** The per-frame options in force (live parameters change them between frames). */
  get frameOptions(): FrameOptions {
    return this.options;
  }

  /** Every model's engine session, for power and placement reports. */
  get models(): readonly ModelPipeline[] {
    return modelsOf(this.current);
  }

  /**
   * Applies per-frame options from the next frame on. Throws a ConfigError (and changes nothing)
   * for a class name the model does not have.
   */
  setFrameOptions(o: FrameOptions): void {
    const { main, detectorThresholds } = this.thresholds(o);
    const detector = this.personDetector;
    this.model.setThresholds(main);
    if (detector && detectorThresholds) detector.setThresholds(detectorThresholds);
    this.options = o;
    this.personIdsFor = undefined;
    // Switching tracking on starts afresh; new thresholds keep the tracks.
    if (!o.tracking) this.trackers.clear();
    else for (const t of this.trackers.values()) t.setOptions(o.tracking);
  }

  /**
   * Forgets every track: frames after a pause (deactivate, activate) do not continue the ones
   * before it, and a frame-counted buffer would otherwise keep stale tracks across the pause.
   */
  resetTracking(camera?: string): void {
    if (camera === undefined) this.trackers.clear();
    else this.trackers.delete(camera);
  }

  /** Why `o` cannot apply to these models ('' when it can), without applying it. */
  frameOptionsProblem(o: FrameOptions): string {
    try {
      this.thresholds(o);
      return '';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private thresholds(o: FrameOptions): { main: Thresholds; detectorThresholds?: Thresholds } {
    const main = thresholdsFor(this.model.manifest, o, o.classes);
    const detector = this.personDetector;
    const detectorThresholds = detector
      ? thresholdsFor(
          detector.manifest,
          o,
          undefined,
          personClassIds(detector.manifest.classNames, o.personClasses, detector.name),
        )
      : undefined;
    return detectorThresholds ? { main, detectorThresholds } : { main };
  }

  /**
   * Runs the frame. A top-down model fed by another pipeline gets that pipeline's detections.
   * With tracking on, a top-down model runs only on tracked people (their ids go to the poses);
   * any other model's results are tracked after its head.
   */
  async run(frame: Frame, persons?: PersonInput, camera = ''): Promise<FrameOutcome> {
    let before: PipelineResult | undefined;
    let people = persons ? this.personsOf(persons) : [];
    if (this.personDetector) {
      before = await this.personDetector.run(frame);
      // The detector's thresholds keep only person classes (setFrameOptions).
      people = before.task === 'detect' ? before.detections : [];
    }
    const tracker = this.trackerOf(camera);
    if (this.model.needsPersonBoxes) {
      const tracked = tracker ? trackPersons(tracker, people) : undefined;
      const result = await this.model.run(
        frame,
        (tracked ?? people).map((p) => p.box),
      );
      return {
        result: tracked ? carryPersonIds(result, tracked) : result,
        timings: sumTimings(before, result),
      };
    }
    const result = await this.model.run(frame);
    return {
      result: tracker ? trackResult(result, tracker) : result,
      timings: sumTimings(before, result),
    };
  }

  /**
   * How many frames one run of the node's model takes: its batch for a whole-frame model of a
   * batch-N copy, else 1 (top-down pose runs on person crops, one run per person).
   */
  get batch(): number {
    return this.model.needsPersonBoxes ? 1 : this.model.batch;
  }

  /**
   * Frames of several cameras (at most `batch`) as one batched run of the model; an outcome per
   * frame, in order, tracked by its own camera's tracker. Each outcome's engine timings are the
   * shared run's.
   */
  async runBatch(
    items: readonly { readonly frame: Frame; readonly camera: string }[],
  ): Promise<FrameOutcome[]> {
    if (this.batch < 2) throw new Error(`${this.name} does not run batched (batch ${this.batch})`);
    const results = await this.model.runBatch(items.map((i) => i.frame));
    return results.map((result, i) => {
      const tracker = this.trackerOf(items[i]!.camera);
      return {
        result: tracker ? trackResult(result, tracker) : result,
        timings: sumTimings(undefined, result),
      };
    });
  }

  private personsOf(p: PersonInput): ReturnType<typeof personDetections> {
    if (this.personIdsFor !== p.classNames) {
      this.personIds = new Set(
        personClassIds(p.classNames, this.options.personClasses, p.detector),
      );
      this.personIdsFor = p.classNames;
    }
    return personDetections(p.detections, this.personIds);
  }

  /** Frees the models; one whose run passed its deadline is freed when that run returns. */
  dispose(): void {
    for (const m of this.models) {
      if (m.session.inFlight === 0) m.dispose();
      // Nobody awaits a cleaned-up pipeline: a failure to free a dead session has no one to tell.
      else m.disposeWhenIdle().catch(() => undefined);
    }
  }
}

function modelsOf(s: LoadedModels): ModelPipeline[] {
  return s.detector ? [s.model, s.detector] : [s.model];
}

interface LoadedModels {
  readonly model: ModelPipeline;
  readonly detector: ModelPipeline | undefined;
  readonly provider: 'cpu' | 'htp' | 'gpu';
}

/**
 * The node's models on `provider`; a missing, corrupt or mismatched model, a wrong task or a class
 * name the model does not have fails here with a ConfigError naming it.
 */
async function loadModels(
  c: PerceptionConfig,
  provider: 'cpu' | 'htp' | 'gpu',
  requiredTask: Task | undefined,
): Promise<LoadedModels> {
  const choices: RuntimeChoices = {
    provider,
    precision: c.precision,
    int8Input: c.int8_input,
    threads: c.threads,
    allowModelMismatch: c.allow_model_mismatch,
    htp: {
      profile: c.htp_profile,
      vtcm_mb: c.vtcm_mb,
      // The CPU after the accelerator failed is the fallback on_accelerator_failure chose.
      require_accelerator: provider === c.provider ? c.require_accelerator : false,
      ...(c.context_cache ? { context_cache: c.context_cache } : {}),
    },
    gpu: { require_accelerator: provider === c.provider ? c.require_accelerator : false },
  };
  const loaded: ModelPipeline[] = [];
  try {
    const model = await ModelPipeline.load(
      requireModelReference(c.model),
      choices,
      undefined,
      c.keypoint_set,
    );
    loaded.push(model);
    const task = model.manifest.task;
    if (requiredTask && task !== requiredTask) {
      throw new ConfigError(
        `${c.model}: this node needs a ${requiredTask} model, this one is ${task}`,
      );
    }
    let detector: ModelPipeline | undefined;
    if (model.needsPersonBoxes) {
      if (!c.person_detector && !c.person_source) {
        throw new ConfigError(
          `${c.model}: a top-down pose model needs person_detector (a detect model manifest) or person_source (a detection pipeline of this process)`,
        );
      }
      if (c.person_detector) {
        // Same provider and HTP options as the pose model: a detector left on the CPU would
        // silently take the HTP's place. A context cache belongs to one model, so not here.
        const htp = { ...choices.htp };
        delete htp.context_cache;
        detector = await ModelPipeline.load(requireModelReference(c.person_detector), {
          ...choices,
          htp,
        });
        loaded.push(detector);
        if (detector.manifest.task !== 'detect') {
          throw new ConfigError(
            `${c.person_detector}: person_detector must be a detect model, this one is ${detector.manifest.task}`,
          );
        }
      }
    }
    return { model, detector, provider };
  } catch (e) {
    for (const m of loaded) m.dispose();
    throw e;
  }
}

function thresholdsFor(
  m: ModelManifest,
  o: FrameOptions,
  classNames: readonly string[] | undefined,
  classIds?: readonly number[],
): Thresholds {
  const ids =
    classIds ?? (classNames && classNames.length > 0 ? classIdsByName(m, classNames) : undefined);
  return {
    // A tracker needs the low-score detections too (its second stage); it decides what is output.
    score: o.tracking ? o.tracking.lowThreshold : o.scoreThreshold,
    iou: o.iouThreshold,
    maxDetections: o.maxDetections,
    probability: o.probabilityThreshold,
    ...(ids ? { classes: ids } : {}),
  };
}

/** The `classes` parameter names classes; heads filter by index in the model's list. */
function classIdsByName(m: ModelManifest, names: readonly string[]): number[] {
  return names.map((n) => {
    const i = m.classNames.indexOf(n);
    if (i < 0) {
      throw new ConfigError(
        `classes: '${n}' is not a class of ${m.name} (${m.classNames.join(', ')})`,
      );
    }
    return i;
  });
}

function sumTimings(a: PipelineResult | undefined, b: PipelineResult): FrameTimings {
  const t = (r: PipelineResult | undefined, k: keyof FrameTimings): number =>
    r ? r.timings[k] : 0;
  return {
    preprocessMs: t(a, 'preprocessMs') + t(b, 'preprocessMs'),
    inferenceMs: t(a, 'inferenceMs') + t(b, 'inferenceMs'),
    queueMs: t(a, 'queueMs') + t(b, 'queueMs'),
    engineMs: t(a, 'engineMs') + t(b, 'engineMs'),
    headMs: t(a, 'headMs') + t(b, 'headMs'),
  };
}
