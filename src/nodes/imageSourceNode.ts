import type * as Rclnodejs from 'rclnodejs';
import { encodeImage } from '../ros/codecs/imageCodec';
import { stampNow } from '../ros/rosHeader';
import { encodeCompressedImage } from '../ros/codecs/compressedImageCodec';
import { matchedSubscriptions } from '../ros/matchedSubscriptions';
import { createOutputPublisher, IMAGE_QOS } from '../ros/publisherQos';
import { declareDescribedParameters } from '../ros/declareDescribedParameters';
import { tableDescriptions } from '../config/parameterTable';
import {
  IMAGE_SOURCE_DEFAULTS,
  IMAGE_SOURCE_PARAMETERS,
  ImageSourceConfig,
  parseImageSourceConfig,
} from '../config/imageSourceConfig';
import { decodePhoto, DecodedPhoto, listPhotos } from '../photos/photoFrames';
import { runNodeProcess } from './process/runNodeProcess';

/**
 * A camera stand-in for demos and tests: publishes real photos from a folder as sensor_msgs/Image
 * (reliable, keep last 1: default-QoS viewers and sensor-data subscribers both match) at a fixed rate, each stamped with the current ROS time.
 */
export class ImageSourceNode {
  readonly node: Rclnodejs.Node;
  readonly config: ImageSourceConfig;
  private readonly rawPub: Rclnodejs.Publisher<'sensor_msgs/msg/Image'>;
  private readonly jpegPub: Rclnodejs.Publisher<'sensor_msgs/msg/CompressedImage'> | undefined;
  private photos: DecodedPhoto[] = [];
  private index = 0;
  private timer: Rclnodejs.Timer | undefined;
  private stopped = false;
  published = 0;

  constructor(rcl: typeof Rclnodejs, name = 'image_source') {
    this.node = new rcl.Node(name);
    this.config = parseImageSourceConfig(
      declareDescribedParameters(rcl, this.node, IMAGE_SOURCE_PARAMETERS),
    );
    // A camera's output like any other: reliable keep-last 1 matches default-QoS viewers and
    // sensor-data subscribers (the perception nodes' input_qos default) alike.
    this.rawPub = createOutputPublisher(
      rcl,
      this.node,
      'sensor_msgs/msg/Image',
      'image',
      IMAGE_QOS,
    );
    if (this.config.publish_compressed) {
      this.jpegPub = createOutputPublisher(
        rcl,
        this.node,
        'sensor_msgs/msg/CompressedImage',
        'image/compressed',
        IMAGE_QOS,
      );
    }
  }

  async start(onDone?: () => void): Promise<void> {
    const files = listPhotos(this.config.directory);
    this.photos = await Promise.all(
      files.map((f) =>
        decodePhoto(f, this.config.encoding, {
          maxSide: this.config.max_side,
          width: this.config.width,
          height: this.config.height,
        }),
      ),
    );
    // Not awaited: the process spins the node only once start() returned, and the wait needs it.
    void this.subscribers(this.config.wait_for_subscribers).then(() => this.publish(onDone));
  }

  private publish(onDone?: () => void): void {
    if (this.stopped) return;
    this.node
      .getLogger()
      .info(
        `publishing ${this.photos.length} photos from ${this.config.directory} at ${this.config.rate_hz} Hz`,
      );
    this.timer = this.node.createTimer(BigInt(Math.round(1e9 / this.config.rate_hz)), () => {
      if (!this.config.loop && this.index >= this.photos.length) {
        this.timer?.cancel();
        onDone?.();
        return;
      }
      this.publishNext();
    });
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /** Resolves once `count` subscriptions matched `image` (at once for 0), or stop() is called. */
  private subscribers(count: number): Promise<void> {
    if (count <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      // The executor is the node's; a 50 ms timer reads the count where DDS updates it.
      const poll = this.node.createTimer(50_000_000n, () => {
        if (!this.stopped && matchedSubscriptions(this.rawPub) < count) return;
        this.node.destroyTimer(poll);
        resolve();
      });
    });
  }

  private publishNext(): void {
    const photo = this.photos[this.index % this.photos.length]!;
    this.index++;
    const header = { stamp: stampNow(this.node), frameId: this.config.frame_id };
    this.rawPub.publish(encodeImage({ header, ...photo }));
    this.jpegPub?.publish(encodeCompressedImage({ header, format: 'jpeg', data: photo.jpeg }));
    this.published++;
  }
}

if (require.main === module) {
  runNodeProcess({
    name: 'image_source',
    summary: 'publishes real photos from a folder as a camera stream',
    parameters: IMAGE_SOURCE_DEFAULTS,
    descriptions: tableDescriptions(IMAGE_SOURCE_PARAMETERS),
    topics: [
      'out: image (sensor_msgs/Image), image/compressed (sensor_msgs/CompressedImage, with publish_compressed)',
    ],
    start: async (rcl) => {
      const source = new ImageSourceNode(rcl);
      // A finite source (loop: false) ends the process itself once every photo went out.
      await source.start(() => process.kill(process.pid, 'SIGTERM'));
      return {
        nodes: [source.node],
        stop: async () => source.stop(),
        destroy: () => source.node.destroy(),
      };
    },
  });
}
