import type * as Rclnodejs from 'rclnodejs';
import { loadRclnodejs, runMain } from '../../ros/rosEnvironment';
import { printHelp, wantsHelp } from './nodeMain';

/** What a node executable started: the nodes to spin and how to stop them. */
export interface RunningNodes {
  readonly nodes: readonly Rclnodejs.Node[];
  /** Stops taking input and waits for work in flight (runs, publishing). */
  stop(): Promise<void>;
  /** Frees the nodes; called once stop() settled. */
  destroy(): void;
}

export interface NodeProcessSpec {
  readonly name: string;
  readonly summary: string;
  /** Parameters for --help: default value and, where known, what it means. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly descriptions?: Readonly<Record<string, string>>;
  readonly topics: readonly string[];
  start(rcl: typeof Rclnodejs): Promise<RunningNodes>;
}

/** A stop must finish well inside the 2 s launch and systemd give a node before killing it. */
const STOP_BUDGET_MS = 1800;

/**
 * How long each node's executor thread waits in rcl_wait before it looks again when nothing is
 * ready. Messages, timers and services end the wait at once, so this only paces idle wake-ups:
 * rclnodejs' default of 10 ms rebuilt every node's wait set 100 times a second (one executor per
 * managed node, three in a three-pipeline container), ~8 ms of CPU a second per node for nothing.
 */
const SPIN_WAIT_MS = 100;

/**
 * The one way every executable of the package runs: `--help` without ROS; a missing ROS
 * environment or a bad parameter is one line and exit code 2; SIGINT / SIGTERM stop the nodes,
 * wait for work in flight, and exit 0 (rclnodejs' own SIGINT handler, which tears the context
 * down under running callbacks, is removed).
 */
export function runNodeProcess(spec: NodeProcessSpec): void {
  runMain(async () => {
    if (wantsHelp(process.argv)) {
      printHelp(spec.name, spec.summary, spec.parameters, [...spec.topics], spec.descriptions);
      return;
    }
    const rcl = loadRclnodejs();
    await rcl.init();
    rcl.removeSignalHandlers();
    const running = await spec.start(rcl);
    for (const n of running.nodes) n.spin(SPIN_WAIT_MS);
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      const overdue = setTimeout(() => {
        process.stderr.write(
          `${spec.name}: work in flight did not finish within ${STOP_BUDGET_MS} ms; exiting\n`,
        );
        process.exit(1);
      }, STOP_BUDGET_MS);
      void running
        .stop()
        .catch((e: unknown) => {
          process.stderr.write(
            `${spec.name}: stop: ${e instanceof Error ? e.message : String(e)}\n`,
          );
        })
        .finally(() => {
          clearTimeout(overdue);
          running.destroy();
          if (!rcl.isShutdown()) rcl.shutdown();
          process.exit(0);
        });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
