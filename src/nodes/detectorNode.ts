import { runMain } from '../ros/rosEnvironment';
import { runPerceptionNode } from './perceptionNode';

/** The perception node restricted to detection models: refuses any other task at start. */
if (require.main === module) {
  runMain(() =>
    runPerceptionNode(
      'detector',
      'YOLOv8 detection on a camera topic (CPU or Hexagon HTP)',
      'detect',
    ),
  );
}
