import type * as Rclnodejs from 'rclnodejs';
import {
  CONTAINER_DEFAULTS,
  CONTAINER_PARAMETERS,
  parseContainerConfig,
} from '../config/containerConfig';
import { tableDescriptions } from '../config/parameterTable';
import { declareDescribedParameters } from '../ros/declareDescribedParameters';
import { PerceptionNode } from './perception/managedPerceptionNode';
import {
  newPerceptionProcess,
  PERCEPTION_HELP,
  startPerceptionNodes,
} from './process/perceptionProcess';
import { runNodeProcess } from './process/runNodeProcess';

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
  let config;
  try {
    config = parseContainerConfig(declareDescribedParameters(rcl, container, CONTAINER_PARAMETERS));
  } catch (e) {
    container.destroy();
    throw e;
  }
  const p = newPerceptionProcess(rcl);
  const nodes = config.pipelines.map((name) => new PerceptionNode(p, name));
  container.getLogger().info(`pipelines: ${config.pipelines.join(', ')}`);
  return startPerceptionNodes(nodes, [container]);
}

if (require.main === module) {
  runNodeProcess({
    name: 'perception_container',
    summary:
      'several perception pipelines (e.g. detection, HRNet pose on its people, DeepLabV3) on one camera in one process',
    parameters: { ...CONTAINER_DEFAULTS, '<pipeline>.*': 'every perception_node parameter' },
    descriptions: { ...tableDescriptions(CONTAINER_PARAMETERS), ...PERCEPTION_HELP.descriptions },
    topics: [
      'e.g.: perception_container --ros-args --params-file config/pipelines.yaml -r image:=/camera/image_raw',
      ...PERCEPTION_HELP.topics.map((t) => t.replaceAll('~/', '<pipeline>/')),
    ],
    start,
  });
}
