import type * as Rclnodejs from 'rclnodejs';
import { ConfigError } from '../../core/configError';
import { encodeCompressedVideo } from '../../ros/codecs/compressedVideoCodec';
import { matchedSubscriptions } from '../../ros/matchedSubscriptions';
import { createOutputPublisher, VIDEO_QOS } from '../../ros/publisherQos';
import type { OutputTopics } from '../../ros/outputTopics';
import type { RosHeader } from '../../ros/rosHeader';
import type { AnnotatedVideoSink } from '../../annotate/annotatedStream';
import type { FrameOptions } from '../../config/perceptionConfig';
import { videoFrameSize } from '../../video/videoFrameSize';
import type { VideoEncoderChoice } from '../../core/videoEncoders';
import { chooseEncoder, type ChosenEncoder } from '../../video/encoderChoice';
import { H264Stream, type H264StreamStats } from '../../video/h264Stream';
import type { EncodedPacket, VideoAddon } from '../../video/videoAddon';
import { environmentTestVideoFaults } from '../../video/testVideoFaults';

/** The topic, after foxglove_compressed_video_transport's `<base>/foxglove`. */
export const VIDEO_TOPIC = 'annotated/foxglove';

export interface VideoOutputStats extends H264StreamStats {
  /** Offers not encoded because nobody subscribed. */
  readonly unwatched: number;
  /** Viewers that joined (each got an IDR on the next picture). */
  readonly joins: number;
  /**
   * Pictures not sent because a viewer matched while they were being encoded: a P-frame would
   * have been its first message; the next picture is an IDR instead.
   */
  readonly heldForJoin: number;
}

/**
 * The encoder a `video_encoder` value means here, or a ConfigError naming what was probed. Only
 * auto and v4l2 look at the devices: the software encoders open no /dev/video* node.
 */
export function chooseVideoEncoder(addon: VideoAddon, choice: VideoEncoderChoice): ChosenEncoder {
  const devices = choice === 'auto' || choice === 'v4l2' ? addon.probeV4l2() : [];
  return chooseEncoder(choice, devices, addon.libraries());
}

/**
 * ~/annotated/foxglove (foxglove_msgs/CompressedVideo, h264): the annotated pictures as video for
 * operators on weak links, encoded only while someone subscribes. A viewer that joins gets an IDR
 * on the next picture: the subscriptions DDS matched are counted at every offer, and a rise
 * forces one.
 */
export class VideoOutput implements AnnotatedVideoSink<RosHeader> {
  private readonly publisher: Rclnodejs.Publisher<'foxglove_msgs/msg/CompressedVideo'>;
  private readonly stream: H264Stream<RosHeader>;
  private matched = 0;
  /** A viewer joined and has had no IDR yet: until one goes out, P-frames are held back. */
  private awaitingKeyframe = false;
  private choice: VideoEncoderChoice;
  private counts = { unwatched: 0, joins: 0, heldForJoin: 0 };

  /** Throws ConfigError when `choice` cannot be had on this machine (see chooseEncoder). */
  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    private readonly addon: VideoAddon,
    private readonly options: () => FrameOptions,
    warn: (line: string) => void,
    topics: OutputTopics,
  ) {
    const chosen = chooseVideoEncoder(addon, options().video.encoder);
    const faults = environmentTestVideoFaults();
    this.publisher = createOutputPublisher(
      rcl,
      node,
      'foxglove_msgs/msg/CompressedVideo',
      topics(VIDEO_TOPIC),
      VIDEO_QOS,
    );
    this.stream = new H264Stream<RosHeader>(
      {
        open: (_codec, options) =>
          new addon.VideoEncoder(
            faults ? { ...options, testFailAfterFrames: faults.failAfterFrames } : options,
          ),
        publish: (packet, header) => this.publish(packet, header),
        warn,
        now: () => performance.now(),
      },
      chosen,
      chooseVideoEncoder(addon, 'software'),
      () => {
        const o = this.options();
        return {
          bitrateKbps: o.video.bitrateKbps,
          keyframeIntervalS: o.video.keyframeIntervalS,
          // Rate control plans for the rate pictures may come at: the cap, else a camera's 30 Hz.
          frameRate: o.annotatedMaxRateHz > 0 ? o.annotatedMaxRateHz : 30,
        };
      },
    );
    this.choice = options().video.encoder;
  }

  get encoder(): ChosenEncoder {
    return this.stream.encoder;
  }

  get stats(): VideoOutputStats {
    return { ...this.stream.stats, ...this.counts };
  }

  /** Someone subscribes now; a subscriber that joined since the last offer gets an IDR. */
  wanted(): boolean {
    const n = this.matchedNow();
    if (n === 0) this.counts.unwatched++;
    return n > 0;
  }

  /** The subscriptions DDS matched; a rise (a viewer joined) asks the stream for an IDR. */
  private matchedNow(): number {
    const n = matchedSubscriptions(this.publisher);
    if (n > this.matched) {
      this.counts.joins += n - this.matched;
      this.stream.requestKeyframe();
      this.awaitingKeyframe = true;
    }
    this.matched = n;
    return n;
  }

  /**
   * A viewer's first message must be an IDR, but it can match while a picture is being encoded
   * (the publisher meets a subscription asynchronously), and an encoder with a pipeline (V4L2)
   * hands out pictures encoded before the IDR was asked for: until the IDR goes out, P-frames are
   * held back from every viewer. The others lose those pictures cleanly, since the IDR starts the
   * references afresh.
   */
  private publish(packet: EncodedPacket, header: RosHeader): boolean {
    this.matchedNow();
    if (this.awaitingKeyframe && !packet.keyframe) {
      this.counts.heldForJoin++;
      return false;
    }
    if (packet.keyframe) this.awaitingKeyframe = false;
    this.publisher.publish(encodeCompressedVideo(header, packet.data, 'h264'));
    return true;
  }

  size(sourceWidth: number, sourceHeight: number): { width: number; height: number } {
    const o = this.options();
    return videoFrameSize(sourceWidth, sourceHeight, o.video.width, o.annotatedMaxWidth);
  }

  offer(rgb: Uint8Array, width: number, height: number, header: RosHeader): void {
    const choice = this.options().video.encoder;
    // The parameter gate checked the new value (problem()); a device lost since falls back here.
    if (choice !== this.choice) {
      this.choice = choice;
      this.choose(choice);
    }
    this.stream.offer(rgb, width, height, header);
  }

  /**
   * What a new `video_encoder` would be, or why it cannot be (the parameter gate asks before the
   * change is accepted).
   */
  problem(choice: VideoEncoderChoice): string {
    try {
      chooseVideoEncoder(this.addon, choice);
      return '';
    } catch (e) {
      if (e instanceof ConfigError) return e.message;
      throw e;
    }
  }

  private choose(choice: VideoEncoderChoice): void {
    let chosen: ChosenEncoder;
    try {
      chosen = chooseVideoEncoder(this.addon, choice);
    } catch {
      chosen = chooseVideoEncoder(this.addon, 'software');
    }
    if (chosen.codec !== this.stream.encoder.codec) this.stream.choose(chosen);
  }

  idle(): Promise<void> {
    return this.stream.idle();
  }

  async destroy(): Promise<void> {
    await this.stream.close();
    this.node.destroyPublisher(this.publisher);
  }
}
