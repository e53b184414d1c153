/**
 * How a node's cameras share its model's runs, for its diagnostics: batched (a batch-N copy, see
 * `model import MODEL --batch N`), with the runs and frames so far, or one after another and why.
 */
export class BatchedRuns {
  private runs = 0;
  private frames = 0;

  /** One batched run of `frames` frames. */
  count(frames: number): void {
    this.runs++;
    this.frames += frames;
  }

  get total(): { readonly runs: number; readonly frames: number } {
    return { runs: this.runs, frames: this.frames };
  }
}

export interface BatchingFacts {
  /** The node's model by name (what `model` names). */
  readonly model: string;
  /** Frames one run takes (PerceptionPipeline.batch). */
  readonly batch: number;
  readonly topDown: boolean;
  readonly cameras: number;
}

/** The facts of `pipeline` serving `cameras` cameras. */
export function batchingFacts(
  pipeline: {
    readonly name: string;
    readonly batch: number;
    readonly model: { readonly needsPersonBoxes: boolean };
  },
  cameras: number,
): BatchingFacts {
  return {
    model: pipeline.name,
    batch: pipeline.batch,
    topDown: pipeline.model.needsPersonBoxes,
    cameras,
  };
}

/** Whether a batch-N model leaves slots of every run idle (fewer cameras than its batch). */
export function idleSlots(f: BatchingFacts): number {
  return f.batch > 1 ? Math.max(0, f.batch - Math.max(1, f.cameras)) : 0;
}

/** Whether the cameras' frames run batched, and if not why, in an operator's words. */
export function batchingStatement(f: BatchingFacts): string {
  if (f.batch > 1 && f.cameras < 2) {
    return `one camera on a batch-${f.batch} model: ${f.batch - 1} of its ${f.batch} slots run idle every frame (a batch-1 model does the same for a ${f.batch}th of the work)`;
  }
  if (f.batch > 1) {
    const idle = f.batch > f.cameras ? `; ${f.batch - f.cameras} slot(s) idle per run` : '';
    return `batched: up to ${Math.min(f.batch, f.cameras)} cameras' frames per run (batch ${f.batch})${idle}`;
  }
  if (f.topDown) return 'one after another: a top-down pose model runs once per person crop';
  if (f.cameras < 2) return 'one frame per run (one camera)';
  return `one after another: ${f.model} takes batch 1 (make a batch-${f.cameras} copy with 'htp-perception model import ${f.model} --batch ${f.cameras}')`;
}
