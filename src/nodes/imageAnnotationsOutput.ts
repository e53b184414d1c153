import type * as Rclnodejs from 'rclnodejs';
import { AnnotationContext, imageAnnotations, PublishedResult } from '../ros/imageAnnotations';
import { createOutputPublisher, RESULT_QOS } from '../ros/publisherQos';

export interface ImageAnnotationsStats {
  /** Messages published on ~/annotations. */
  readonly published: number;
  /** Results not turned into annotations because nobody subscribed. */
  readonly unwatched: number;
}

/**
 * ~/annotations (foxglove_msgs/ImageAnnotations): boxes, labels and skeletons that Foxglove draws
 * over the camera stream the robot already sends, so no second video stream is needed. Built only
 * while someone subscribes (one subscriber count per result, no pixels touched).
 */
export class ImageAnnotationsOutput {
  private readonly publisher: Rclnodejs.Publisher<'foxglove_msgs/msg/ImageAnnotations'>;
  private counts = { published: 0, unwatched: 0 };

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    private readonly style: Pick<AnnotationContext, 'classNames' | 'skeleton'>,
  ) {
    this.publisher = createOutputPublisher(
      rcl,
      node,
      'foxglove_msgs/msg/ImageAnnotations',
      '~/annotations',
      RESULT_QOS,
    );
  }

  get stats(): ImageAnnotationsStats {
    return { ...this.counts };
  }

  offer(result: PublishedResult | undefined, width: number, height: number): void {
    if (!result) return;
    if (this.node.countSubscribers(this.publisher.topic) === 0) {
      this.counts.unwatched++;
      return;
    }
    this.publisher.publish(imageAnnotations(result, { ...this.style, width, height }));
    this.counts.published++;
  }

  destroy(): void {
    this.node.destroyPublisher(this.publisher);
  }
}
