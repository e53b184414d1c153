import type * as Rclnodejs from 'rclnodejs';
import { createOutputPublisher, type OutputQos } from './publisherQos';
import { matchedSubscriptions } from './matchedSubscriptions';

export interface WatchedPublisherStats {
  /** Messages published. */
  readonly published: number;
  /** Offers not made into a message because nobody subscribed. */
  readonly unwatched: number;
}

/**
 * An output worth its work only while someone watches it (the operator views: annotated pictures,
 * Foxglove annotations, the colour overlay): `watched()` asks DDS once per offer, so a view builds
 * nothing and touches no pixels while unobserved, and the counts say how often that was. It asks
 * the publisher for the subscriptions DDS matched to it (one cheap call; a subscriber whose QoS
 * cannot match would get nothing anyway), not the node for the topic's subscribers, which
 * expands, validates and remaps the topic name and walks the ROS graph: six native calls with
 * strings, twice a frame (~1.5 % of a perception node's CPU at 30 Hz).
 */
export class WatchedPublisher<T extends Rclnodejs.MessageTypeClassName> {
  private counts = { published: 0, unwatched: 0 };

  constructor(
    private readonly node: Rclnodejs.Node,
    private readonly publisher: Rclnodejs.Publisher<T>,
  ) {}

  /** An output publisher of `node`, QoS and overrides as createOutputPublisher makes them. */
  static create<T extends Rclnodejs.MessageTypeClassName>(
    rcl: typeof Rclnodejs,
    node: Rclnodejs.Node,
    type: T,
    topic: string,
    defaults: OutputQos,
  ): WatchedPublisher<T> {
    return new WatchedPublisher(node, createOutputPublisher(rcl, node, type, topic, defaults));
  }

  /** Someone subscribes now; if not, the offer is counted as unwatched. */
  watched(): boolean {
    if (matchedSubscriptions(this.publisher) > 0) return true;
    this.counts.unwatched++;
    return false;
  }

  publish(message: Parameters<Rclnodejs.Publisher<T>['publish']>[0]): void {
    this.publisher.publish(message);
    this.counts.published++;
  }

  get stats(): WatchedPublisherStats {
    return { ...this.counts };
  }

  destroy(): void {
    this.node.destroyPublisher(this.publisher);
  }
}
