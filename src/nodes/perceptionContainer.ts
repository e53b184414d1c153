import type * as Rclnodejs from 'rclnodejs';
import { z } from 'zod';
import { describeZodError } from '../core/configError';
import { declareParameters } from '../ros/nodeParameters';
import { PerceptionNode } from './managedPerceptionNode';
import { newPerceptionProcess, PERCEPTION_HELP, startPerceptionNodes } from './perceptionProcess';
import { runNodeProcess } from './runNodeProcess';

const CONTAINER_DEFAULTS = { pipelines: [] as string[] };

const containerSchema = z.object({
  pipelines: z
    .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a node name (letters, digits, _)'))
    .min(1, 'name at least one pipeline')
    .refine((a) => new Set(a).size === a.length, 'pipeline names must be unique'),
});

/**
 * perception_container: several perception pipelines in one process, each a managed node with its
 * own name, parameters, outputs and diagnostics, sharing one subscription and decode per camera
 * topic and one ONNX Runtime environment. Its pipelines and their parameters come from one
 * standard ROS parameters file (config/pipelines.yaml):
 *   perception_container: { ros__parameters: { pipelines: [detector, pose] } }
 *   detector: { ros__parameters: { model: ..., score_threshold: 0.3 } }
 *   pose: { ros__parameters: { model: hrnet-w32-256x192, person_source: detector } }
 */
async function start(rcl: typeof Rclnodejs) {
  const container = new rcl.Node('perception_container');
  const parsed = containerSchema.safeParse(declareParameters(rcl, container, CONTAINER_DEFAULTS));
  if (!parsed.success) {
    container.destroy();
    throw describeZodError('perception_container parameters (--params-file)', parsed.error);
  }
  const p = newPerceptionProcess(rcl);
  const nodes = parsed.data.pipelines.map((name) => new PerceptionNode(p, name));
  container.getLogger().info(`pipelines: ${parsed.data.pipelines.join(', ')}`);
  return startPerceptionNodes(nodes, [container]);
}

if (require.main === module) {
  runNodeProcess({
    name: 'perception_container',
    summary:
      'several perception pipelines (e.g. detection, HRNet pose on its people, DeepLabV3) on one camera in one process',
    parameters: { ...CONTAINER_DEFAULTS, '<pipeline>.*': 'every perception_node parameter' },
    descriptions: {
      pipelines: 'node names of the pipelines, in start order; each takes its own parameters',
      ...PERCEPTION_HELP.descriptions,
    },
    topics: [
      'e.g.: perception_container --ros-args --params-file config/pipelines.yaml -r image:=/camera/image_raw',
      ...PERCEPTION_HELP.topics.map((t) => t.replaceAll('~/', '<pipeline>/')),
    ],
    start,
  });
}
