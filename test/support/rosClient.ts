import { ChildProcess, spawn } from 'node:child_process';
import * as readline from 'node:readline';
import { repoPath } from './paths';
import { privateDomainId } from './rosProcess';

const SCRIPT = repoPath('test', 'fixtures', 'ros', 'ros_client.py');

export interface DetectionsMsg {
  stamp: [number, number];
  frame_id: string;
  items: { id: string; class_id: string; score: number; box: [number, number, number, number] }[];
}
export interface PosesMsg {
  stamp: [number, number];
  frame_id: string;
  poses: {
    box: [number, number, number, number];
    keypoints: number;
    /** [x, y, score] per keypoint. */
    points: [number, number, number][];
  }[];
}
/** foxglove_msgs/ImageAnnotations, summarized by ros_client.py. */
export interface AnnotationsMsg {
  stamp: [number, number];
  metadata: Record<string, string>;
  circles: number;
  points: {
    type: number;
    points: [number, number][];
    colors: number;
    thickness: number;
    metadata: Record<string, string>;
  }[];
  texts: { text: string; position: [number, number]; font_size: number }[];
}
export interface ImageMsg {
  stamp: [number, number];
  frame_id: string;
  encoding: string;
  width: number;
  height: number;
}
export interface TransitionEventMsg {
  start: string;
  goal: string;
  transition: string;
}
export interface DiagnosticStatus {
  level: number;
  message: string;
  values: Record<string, string>;
  /** When the client handled it (seconds since the epoch, the clock of the nodes' log stamps). */
  at?: number;
  /** diagnostics_log only: its DiagnosticArray's header stamp, when the node published it (s). */
  stamp?: number;
}
export interface SetResult {
  successful: boolean;
  reason: string;
}
export interface Descriptor {
  name: string;
  type: number;
  description: string;
  read_only: boolean;
  range: [number, number] | null;
}

type Kind =
  | 'detections'
  | 'poses'
  | 'image'
  | 'events'
  | 'annotations'
  | 'detections_3d'
  | 'poses_3d'
  | 'markers';

export interface Detections3DMsg {
  stamp: [number, number];
  frame_id: string;
  items: {
    id: string;
    class_id: string;
    score: number;
    frame_id: string;
    center: [number, number, number];
    orientation: [number, number, number, number];
    size: [number, number, number];
  }[];
}

export interface Poses3DMsg {
  stamp: [number, number];
  frame_id: string;
  /** keypoints: [x, y, z, score, valid]. */
  poses: { id: string; skeleton: string; keypoints: [number, number, number, number, boolean][] }[];
}

export interface MarkersMsg {
  markers: {
    ns: string;
    id: number;
    type: number;
    action: number;
    frame_id: string;
    stamp: [number, number];
    position: [number, number, number];
    scale: [number, number, number];
    text: string;
    points: number;
    lifetime: number;
  }[];
}
/** A message with a header, summarized by the fields it has (kind `stamped` of ros_client.py). */
export interface StampedMsg {
  stamp: [number, number];
  frame_id: string;
  encoding?: string;
  format?: string;
  width?: number;
  height?: number;
  bytes?: number;
}
/** Subscription QoS: ROS 2's default (reliable, volatile), sensor data, or transient local. */
export type WatchQos = 'default' | 'sensor' | 'latched';
type Answer = Record<string, unknown> & { id: number; error?: string };

/**
 * An rclpy process in the tests' DDS domain that plays lifecycle manager, `ros2 param` and
 * subscriber (test/fixtures/ros/ros_client.py), one JSON request and answer per line.
 */
export class RosClient {
  private next = 1;
  private readonly waiting = new Map<number, (a: Answer) => void>();
  private readonly ready: Promise<void>;
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    let markReady: () => void = () => undefined;
    this.ready = new Promise((r) => (markReady = r));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const a = JSON.parse(line) as Answer;
      if (a.ready) return markReady();
      this.waiting.get(a.id)?.(a);
      this.waiting.delete(a.id);
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  static async start(): Promise<RosClient> {
    const child = spawn('python3', [SCRIPT], {
      env: { ...process.env, ROS_DOMAIN_ID: privateDomainId() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const c = new RosClient(child);
    await c.ready;
    return c;
  }

  private call<T>(op: string, args: Record<string, unknown>, timeoutMs = 90_000): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(
          new Error(`ros_client ${op} got no answer in ${timeoutMs} ms; stderr: ${this.stderr}`),
        );
      }, timeoutMs);
      this.waiting.set(id, (a) => {
        clearTimeout(timer);
        if (a.error) reject(new Error(`ros_client ${op}: ${a.error}`));
        else resolve(a as unknown as T);
      });
      this.child.stdin!.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  async state(node: string): Promise<string> {
    return (await this.call<{ state: string }>('get_state', { node })).state;
  }

  async changeState(node: string, transition: string): Promise<boolean> {
    return (await this.call<{ success: boolean }>('change_state', { node, transition })).success;
  }

  async setParams(node: string, params: Record<string, unknown>): Promise<SetResult[]> {
    return (await this.call<{ results: SetResult[] }>('set_params', { node, params })).results;
  }

  async describe(node: string, names: string[]): Promise<Descriptor[]> {
    return (await this.call<{ descriptors: Descriptor[] }>('describe', { node, names }))
      .descriptors;
  }

  async watch(topic: string, kind: Kind, sensor = false): Promise<void> {
    await this.call('watch', { topic, kind, sensor });
  }

  /**
   * Like watch(), each message also carrying `received_at`: the client's wall clock (seconds, the
   * clock ROS stamps come from here) when its callback ran. Only as exact as the client is busy in
   * take(): it runs callbacks while a request spins, and holds messages between requests.
   */
  async watchTimed(topic: string, kind: Kind): Promise<void> {
    await this.call('watch', { topic, kind, timed: true });
  }

  /**
   * Subscribes to `topic` (any message type with a header) with `qos`, recording under `key`, so
   * one topic can be watched with several QoS profiles at once.
   */
  async watchAs(key: string, topic: string, type: string, qos: WatchQos): Promise<void> {
    await this.call('watch', { key, topic, kind: 'stamped', type, qos });
  }

  /** How many times the watch `key` met a publisher offering incompatible QoS. */
  async incompatibleQos(key: string): Promise<number> {
    return (await this.call<{ count: number }>('incompatible', { key })).count;
  }

  /** Drops the subscription `watch` made (the publisher then counts one subscriber less). */
  async unwatch(topic: string): Promise<void> {
    await this.call('unwatch', { topic });
  }

  /** Messages received on `topic` since the last take or clear (waits for at least `count`). */
  async take<T>(topic: string, count: number, timeoutS: number): Promise<T[]> {
    const r = await this.call<{ messages: T[] }>(
      'take',
      { topic, count, timeout: timeoutS },
      (timeoutS + 30) * 1000,
    );
    return r.messages;
  }

  async clear(topic: string): Promise<void> {
    await this.call('clear', { topic });
  }

  /** Names of the nodes subscribed to `topic`. */
  async subscribers(topic: string, atLeast = 1, timeoutS = 5): Promise<string[]> {
    return (
      await this.call<{ nodes: string[] }>('subscribers', {
        topic,
        at_least: atLeast,
        timeout: timeoutS,
      })
    ).nodes;
  }

  /** The node's newest DiagnosticStatus (published after this call). */
  async diagnostics(node: string, timeoutS = 5): Promise<DiagnosticStatus> {
    return this.call<DiagnosticStatus>('diagnostics', { node, timeout: timeoutS });
  }

  /** Every status of the node received so far (the newest 500), in order of arrival. */
  async diagnosticsLog(node: string): Promise<DiagnosticStatus[]> {
    return (await this.call<{ statuses: DiagnosticStatus[] }>('diagnostics_log', { node }))
      .statuses;
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
    await new Promise<void>((r) => {
      if (this.child.exitCode !== null) return r();
      const t = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      this.child.on('exit', () => {
        clearTimeout(t);
        r();
      });
    });
  }
}
