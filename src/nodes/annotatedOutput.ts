import type * as Rclnodejs from 'rclnodejs';
import type { AnnotatedSinks } from '../annotate/annotatedStream';
import { encodeCompressedImage } from '../ros/compressedImageCodec';
import { encodeImage } from '../ros/imageCodec';
import { createOutputPublisher, IMAGE_QOS } from '../ros/publisherQos';
import type { RosHeader } from '../ros/rosHeader';

/**
 * ~/annotated (rgb8) and ~/annotated/compressed (JPEG): the operators' picture, each drawn only
 * while someone subscribes to it. The context the annotated stream carries is the image header.
 */
export class AnnotatedOutput implements AnnotatedSinks<RosHeader> {
  private readonly raw: Rclnodejs.Publisher<'sensor_msgs/msg/Image'>;
  private readonly jpeg: Rclnodejs.Publisher<'sensor_msgs/msg/CompressedImage'>;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
  ) {
    this.raw = createOutputPublisher(rcl, node, 'sensor_msgs/msg/Image', '~/annotated', IMAGE_QOS);
    this.jpeg = createOutputPublisher(
      rcl,
      node,
      'sensor_msgs/msg/CompressedImage',
      '~/annotated/compressed',
      IMAGE_QOS,
    );
  }

  wantsJpeg(): boolean {
    return this.node.countSubscribers(this.jpeg.topic) > 0;
  }

  wantsRaw(): boolean {
    return this.node.countSubscribers(this.raw.topic) > 0;
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
    this.node.destroyPublisher(this.raw);
    this.node.destroyPublisher(this.jpeg);
  }
}
