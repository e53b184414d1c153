import type * as Rclnodejs from 'rclnodejs';
import { PERCEPTION_DEFAULTS, PERCEPTION_PARAMETERS } from '../../config/perceptionConfig';
import type { MallocThresholds } from '../../core/mallocThresholds';
import { tableDescriptions } from '../../config/parameterTable';
import type { Task } from '../../pipeline/perceptionPipeline';
import { nativeAddon } from '../../engine/nativeAddon';
import { CameraHub } from '../../ros/cameraHub';
import { DepthHub } from '../../ros/depthHub';
import { TransformHub } from '../../ros/transformListener';
import { setTakeMallocWindow } from '../../ros/takeMallocWindow';
import { missingFrameNodeFlags } from './frameNodeFlags';
import { tierUpPerFrameCodeSooner } from './jsTiering';
import { PerceptionNode, PerceptionProcess } from '../perception/managedPerceptionNode';
import { PipelineRegistry } from '../perception/pipelineRegistry';
import type { NodeProcessSpec, RunningNodes } from './runNodeProcess';

/** A start-up failure of one pipeline, as the one line a user sees (exit code 2). */
export class PipelineStartError extends Error {
  override readonly name: string;
  constructor(pipeline: string, cause: unknown) {
    super(`${pipeline}: ${cause instanceof Error ? cause.message : String(cause)}`);
    // Keep the cause's name (ConfigError, EngineError, ...): it tells what kind of fix is needed.
    this.name = cause instanceof Error ? cause.name : 'ConfigError';
  }
}

export function newPerceptionProcess(rcl: typeof Rclnodejs): PerceptionProcess {
  tierUpPerFrameCodeSooner();
  openTakeMallocWindow();
  return {
    rcl,
    cameras: new CameraHub(rcl),
    depths: new DepthHub(rcl),
    transforms: new TransformHub(rcl),
    pipelines: new PipelineRegistry(),
  };
}

/**
 * Camera frames are taken with the engine addon's glibc thresholds restored around each take
 * (src/ros/takeMallocWindow.ts). An addon that does not load is reported where sessions load,
 * at configure, as before; until then frames are taken without the window.
 */
function openTakeMallocWindow(): void {
  let thresholds: MallocThresholds | null;
  try {
    thresholds = nativeAddon().mallocThresholds();
  } catch {
    return;
  }
  setTakeMallocWindow(thresholds);
}

/**
 * Brings up perception nodes in one process. Nodes whose `autostart` is true are configured in
 * the order given (so a detection pipeline is ready before the pose pipeline that follows it),
 * then activated; the others wait, unconfigured, for a lifecycle manager.
 */
export async function startPerceptionNodes(
  nodes: readonly PerceptionNode[],
  extraNodes: readonly Rclnodejs.Node[] = [],
): Promise<RunningNodes> {
  const running: RunningNodes = {
    nodes: [...extraNodes, ...nodes.map((n) => n.node)],
    // Each node deactivates (its frame in flight finishes) and frees its sessions.
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
    destroy: () => {
      // Every node is destroyed even when one fails to: rclnodejs' native stop() of a node's
      // spinning has been seen to throw EINVAL ("Invalid argument") at exit, about one container
      // exit in three after a long malformed flood, with the work already stopped and freed. The
      // process is exiting; the failure is said, not thrown.
      const parts: [string, () => void][] = [
        ...nodes.map((n): [string, () => void] => [n.name, () => n.destroy()]),
        ...extraNodes.map((n): [string, () => void] => [n.name(), () => n.destroy()]),
      ];
      for (const [name, destroy] of parts) {
        try {
          destroy();
        } catch (e) {
          process.stderr.write(
            `teardown of ${name}: rclnodejs: ${e instanceof Error ? e.message : String(e)}\n`,
          );
        }
      }
    },
  };
  const missing = missingFrameNodeFlags();
  if (missing.length > 0) {
    running.nodes[0]
      ?.getLogger()
      .warn(
        `started without the V8 flags ${missing.join(' ')} that the installed executables add ` +
          '(HTP_FRAME_NODE_FLAGS): at camera rates V8 may then run a full collection several ' +
          'times a second, up to twice the CPU per frame (docs/DESIGN.md)',
      );
  }
  const auto = nodes.filter((n) => n.autostart);
  for (const step of ['configure', 'activate'] as const) {
    for (const n of auto) {
      const outcome = await n.managed.transition(step);
      if (!outcome.ok) {
        await running.stop();
        running.destroy();
        throw new PipelineStartError(n.name, outcome.error ?? outcome.reason);
      }
    }
  }
  return running;
}

/** --help of the perception executables. */
export const PERCEPTION_HELP = {
  parameters: PERCEPTION_DEFAULTS,
  descriptions: tableDescriptions(PERCEPTION_PARAMETERS),
  topics: [
    'in:  image (sensor_msgs/Image) or image/compressed, or the detections of person_source',
    'out: by the model task: ~/detections (vision_msgs/Detection2DArray), ~/labels (LabelInfo,',
    '     transient local), ~/poses (htp_perception/PersonPoseArray), ~/instances (mono16),',
    '     ~/segmentation (mono8), ~/segmentation/color (rgb8 overlay, only while subscribed);',
    '     ~/annotated and ~/annotated/compressed (JPEG, with a processor/fps/latency badge) and',
    '     ~/annotations (foxglove_msgs/ImageAnnotations, not for semantic) only while subscribed;',
    '     /diagnostics; lifecycle: ~/change_state, ~/get_state, ~/transition_event',
    'qos: outputs are reliable keep-last; override each at start with',
    '     qos_overrides.<topic>.publisher.{reliability,durability,history,depth}',
  ],
};

/** A single perception node process (perception_node, detector_node). */
export function perceptionNodeMain(
  name: string,
  summary: string,
  requiredTask?: Task,
): NodeProcessSpec {
  return {
    name,
    summary,
    ...PERCEPTION_HELP,
    start: async (rcl) => {
      const p = newPerceptionProcess(rcl);
      return startPerceptionNodes([new PerceptionNode(p, name, requiredTask)]);
    },
  };
}
