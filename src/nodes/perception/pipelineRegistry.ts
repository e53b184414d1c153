import type { CameraFrame } from '../../ros/cameraFrame';
import type { PersonInput } from '../../pipeline/perceptionPipeline';

/** A detection pipeline's result on one frame, as a top-down pose pipeline takes it. */
export interface DetectionsOnFrame {
  /** The camera of the detection pipeline that saw it ('' for a single-camera pipeline). */
  readonly camera: string;
  readonly frame: CameraFrame;
  readonly persons: PersonInput;
}

type Listener = (d: DetectionsOnFrame) => void;

/**
 * The pipelines of one process by name, so that an HRNet pipeline can take its person boxes from
 * a detection pipeline of the same process on the same frame instead of running a second
 * detector. The detection pipeline hands each result over as it publishes it; the pose pipeline
 * keeps only the newest, like a camera.
 */
export class PipelineRegistry {
  private readonly names = new Set<string>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly cameras = new Map<string, readonly string[]>();

  register(name: string): void {
    if (this.names.has(name)) throw new Error(`two pipelines named '${name}' in one process`);
    this.names.add(name);
  }

  /** What a pipeline serves, as of its last configure ([''] for its single camera). */
  setCameras(name: string, cameras: readonly string[]): void {
    this.cameras.set(name, cameras);
  }

  /** The cameras `name` serves, once it was configured; a follower takes the same. */
  camerasOf(name: string): readonly string[] | undefined {
    return this.cameras.get(name);
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  get all(): string[] {
    return [...this.names];
  }

  /** Starts taking `source`'s detections; the returned function stops it. */
  follow(source: string, listener: Listener): () => void {
    let set = this.listeners.get(source);
    if (!set) this.listeners.set(source, (set = new Set()));
    const s = set;
    s.add(listener);
    return () => s.delete(listener);
  }

  /** Whether anybody follows `source` (its result is only handed over then). */
  followed(source: string): boolean {
    return (this.listeners.get(source)?.size ?? 0) > 0;
  }

  handOver(source: string, d: DetectionsOnFrame): void {
    for (const l of this.listeners.get(source) ?? []) l(d);
  }
}
