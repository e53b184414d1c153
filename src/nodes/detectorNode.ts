import { perceptionNodeMain } from './process/perceptionProcess';
import { runNodeProcess } from './process/runNodeProcess';

/** detector_node: the perception node restricted to detection models (refuses any other task). */
if (require.main === module) {
  runNodeProcess(
    perceptionNodeMain(
      'detector',
      'YOLOv8 detection on a camera topic (CPU or Hexagon HTP), as a managed node',
      'detect',
    ),
  );
}
