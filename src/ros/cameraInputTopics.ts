import type { InputTransport } from './imageIntake';

/** The input topics of one camera of a node, relative to the node's namespace (remappable). */
export interface CameraInputTopics {
  /** The colour image on the chosen transport. */
  readonly image: string;
  readonly depth: string;
  readonly cameraInfo: string;
}

/**
 * A node's single camera ('') keeps today's names (`image`, `image/compressed`, `depth`,
 * `camera_info`); a camera of `cameras` is a namespace holding a camera driver's usual topics
 * (`<camera>/image_raw`, its image_transport twin `<camera>/image_raw/compressed`,
 * `<camera>/depth`, `<camera>/camera_info`). Relative names, so a node's namespace and remapping
 * apply as to any topic.
 */
export function cameraInputTopics(camera: string, transport: InputTransport): CameraInputTopics {
  const image = camera ? `${camera}/image_raw` : 'image';
  return {
    image: transport === 'raw' ? image : `${image}/compressed`,
    depth: camera ? `${camera}/depth` : 'depth',
    cameraInfo: camera ? `${camera}/camera_info` : 'camera_info',
  };
}
