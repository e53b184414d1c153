import { perceptionNodeMain } from './process/perceptionProcess';
import { runNodeProcess } from './process/runNodeProcess';

/** perception_node: one managed perception node for any task of its model. */
if (require.main === module) {
  runNodeProcess(
    perceptionNodeMain(
      'perception',
      'detection, pose or segmentation on a camera topic (CPU or Hexagon HTP), as a managed node',
    ),
  );
}
