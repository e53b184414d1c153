import type * as Rclnodejs from 'rclnodejs';
import type { OutputTopics } from '../../ros/outputTopics';
import { AnnotationContext, imageAnnotations, PublishedResult } from '../../ros/imageAnnotations';
import { RESULT_QOS } from '../../ros/publisherQos';
import { WatchedPublisher, type WatchedPublisherStats } from '../../ros/watchedPublisher';

/**
 * ~/annotations (foxglove_msgs/ImageAnnotations): boxes, labels and skeletons that Foxglove draws
 * over the camera stream the robot already sends, so no second video stream is needed. Built only
 * while someone subscribes (one subscriber count per result, no pixels touched).
 */
export class ImageAnnotationsOutput {
  private readonly out: WatchedPublisher<'foxglove_msgs/msg/ImageAnnotations'>;

  constructor(
    rcl: typeof Rclnodejs,
    node: Rclnodejs.Node,
    private readonly style: Pick<AnnotationContext, 'classNames' | 'skeleton'>,
    topics: OutputTopics,
  ) {
    this.out = WatchedPublisher.create(
      rcl,
      node,
      'foxglove_msgs/msg/ImageAnnotations',
      topics('annotations'),
      RESULT_QOS,
    );
  }

  /** published: messages on ~/annotations; unwatched: results not annotated, nobody subscribed. */
  get stats(): WatchedPublisherStats {
    return this.out.stats;
  }

  offer(result: PublishedResult | undefined, width: number, height: number): void {
    if (!result || !this.out.watched()) return;
    this.out.publish(imageAnnotations(result, { ...this.style, width, height }));
  }

  destroy(): void {
    this.out.destroy();
  }
}
