/**
 * The output topic names of one camera of a node, relative to the node (`~/`): `~/<name>` for a
 * node with one camera (the `image` input), `~/<camera>/<name>` for each camera of a node with
 * `cameras` set, so that every output of a camera sits under its name.
 */
export type OutputTopics = (name: string) => string;

export function outputTopics(camera: string): OutputTopics {
  return camera ? (name) => `~/${camera}/${name}` : (name) => `~/${name}`;
}

/** A single-camera node's topics. */
export const NODE_TOPICS: OutputTopics = outputTopics('');
