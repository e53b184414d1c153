import type * as Rclnodejs from 'rclnodejs';
import type { OutputTopics } from '../../ros/outputTopics';
import type { AnnotatedSinks, AnnotatedVideoSink } from '../../annotate/annotatedStream';
import { encodeCompressedImage } from '../../ros/codecs/compressedImageCodec';
import { encodeImage } from '../../ros/codecs/imageCodec';
import { IMAGE_QOS } from '../../ros/publisherQos';
import type { RosHeader } from '../../ros/rosHeader';
import { WatchedPublisher } from '../../ros/watchedPublisher';

/**
 * ~/annotated (rgb8) and ~/annotated/compressed (JPEG): the operators' picture, each drawn only
 * while someone subscribes to it; and the video sink (H.264, videoOutput.ts) when there is one. The context the annotated stream carries is the image header.
 */
export class AnnotatedOutput implements AnnotatedSinks<RosHeader> {
  private readonly raw: WatchedPublisher<'sensor_msgs/msg/Image'>;
  private readonly jpeg: WatchedPublisher<'sensor_msgs/msg/CompressedImage'>;

  constructor(
    rcl: typeof Rclnodejs,
    node: Rclnodejs.Node,
    topics: OutputTopics,
    /** ~/annotated/foxglove, when the node has video. */
    readonly video?: AnnotatedVideoSink<RosHeader>,
  ) {
    this.raw = WatchedPublisher.create(
      rcl,
      node,
      'sensor_msgs/msg/Image',
      topics('annotated'),
      IMAGE_QOS,
    );
    this.jpeg = WatchedPublisher.create(
      rcl,
      node,
      'sensor_msgs/msg/CompressedImage',
      topics('annotated/compressed'),
      IMAGE_QOS,
    );
  }

  // The annotated stream counts the pictures nobody wanted itself (one offer asks both).
  wantsJpeg(): boolean {
    return this.jpeg.watched();
  }

  wantsRaw(): boolean {
    return this.raw.watched();
  }

  publishJpeg(jpeg: Buffer, header: RosHeader): void {
    this.jpeg.publish(encodeCompressedImage({ header, format: 'jpeg', data: jpeg }));
  }

  publishRaw(rgb: Buffer, width: number, height: number, header: RosHeader): void {
    this.raw.publish(
      encodeImage({
        header,
        height,
        width,
        encoding: 'rgb8',
        step: width * 3,
        data: rgb,
      }),
    );
  }

  destroy(): void {
    this.raw.destroy();
    this.jpeg.destroy();
  }
}
