import type * as Rclnodejs from 'rclnodejs';
import type { OutputTopics } from '../../ros/outputTopics';
import { blendLabelColors } from '../../annotate/blendLabelColors';
import { DRAWABLE_ENCODINGS, toRgbImage } from '../../annotate/toRgbImage';
import type { Frame } from '../../core/frame';
import type { SemanticMap } from '../../core/headResults';
import { encodeImage } from '../../ros/codecs/imageCodec';
import { IMAGE_QOS } from '../../ros/publisherQos';
import type { RosHeader } from '../../ros/rosHeader';
import { WatchedPublisher, type WatchedPublisherStats } from '../../ros/watchedPublisher';

/**
 * ~/segmentation/color (rgb8): a semantic model's classes in the PASCAL VOC colours, blended over
 * the camera image, for rviz and Foxglove users. Made only while someone subscribes.
 */
export class SegmentationColorOutput {
  private readonly out: WatchedPublisher<'sensor_msgs/msg/Image'>;
  private pending: (() => void) | undefined;

  constructor(rcl: typeof Rclnodejs, node: Rclnodejs.Node, topics: OutputTopics) {
    this.out = WatchedPublisher.create(
      rcl,
      node,
      'sensor_msgs/msg/Image',
      topics('segmentation/color'),
      IMAGE_QOS,
    );
  }

  /** unwatched: maps nobody watched, no colour work done. */
  get stats(): WatchedPublisherStats {
    return this.out.stats;
  }

  /**
   * Called after the label map went out. The blend runs on the next turn of the event loop, after
   * the inference loop has handed its next frame to the engine; a newer map replaces one not yet
   * blended.
   */
  offer(frame: Frame, map: SemanticMap, header: RosHeader, opacity: number): void {
    if (!this.out.watched()) return;
    const first = this.pending === undefined;
    this.pending = () => this.publish(frame, map, header, opacity);
    if (first) {
      setImmediate(() => {
        const job = this.pending;
        this.pending = undefined;
        job?.();
      });
    }
  }

  private publish(frame: Frame, map: SemanticMap, header: RosHeader, opacity: number): void {
    // An encoding we cannot draw on (nv12, 16-bit) still gets the colours, over black.
    const base = DRAWABLE_ENCODINGS.has(frame.encoding)
      ? toRgbImage(frame)
      : { width: map.width, height: map.height, data: new Uint8Array(map.width * map.height * 3) };
    const rgb = blendLabelColors(base, map, DRAWABLE_ENCODINGS.has(frame.encoding) ? opacity : 1);
    this.out.publish(
      encodeImage({
        header,
        height: map.height,
        width: map.width,
        encoding: 'rgb8',
        step: map.width * 3,
        data: rgb,
      }),
    );
  }

  destroy(): void {
    this.pending = undefined;
    this.out.destroy();
  }
}
