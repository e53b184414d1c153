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
  /** The loaded model's own batch (a top-down pose model's may be more than it uses). */
  readonly modelBatch: number;
  readonly topDown: boolean;
  readonly cameras: number;
}

/** Whether the cameras' frames run batched, and if not why, in an operator's words. */
export function batchingStatement(f: BatchingFacts): string {
  if (f.batch > 1) {
    const idle = f.batch > f.cameras ? `; ${f.batch - f.cameras} slot(s) idle per run` : '';
    return `batched: up to ${Math.min(f.batch, f.cameras)} cameras' frames per run (batch ${f.batch})${idle}`;
  }
  if (f.topDown) return 'one after another: a top-down pose model runs once per person crop';
  if (f.cameras < 2) return 'one frame per run (one camera)';
  return `one after another: ${f.model} takes batch 1 (make a batch-${f.cameras} copy with 'htp-perception model import ${f.model} --batch ${f.cameras}')`;
}
