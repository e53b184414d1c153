/** ByteTrack's knobs, as the tracking parameters of a node set them. */
export interface TrackerOptions {
  /**
   * Detections scoring at least this are "high": matched first, against every confirmed track
   * (tracked or lost), and the only ones that may start a track.
   */
  readonly highThreshold: number;
  /**
   * Detections in [lowThreshold, highThreshold) are "low": they only continue tracks still being
   * tracked (second stage), which is how ByteTrack keeps an object through a partial occlusion
   * that halves its score. Below lowThreshold a detection is ignored.
   */
  readonly lowThreshold: number;
  /** An unmatched high detection scoring at least this starts a (tentative) track. */
  readonly newTrackThreshold: number;
  /** Least IoU between a track's predicted box and a high detection for them to match. */
  readonly matchIou: number;
  /** Frames a lost track is kept (coasting on its velocity) for its object to come back. */
  readonly buffer: number;
}

/** ByteTrack's published defaults (track_thresh 0.5, det_thresh +0.1, match_thresh 0.8, 30 frames). */
export const BYTETRACK_DEFAULTS: TrackerOptions = {
  highThreshold: 0.5,
  lowThreshold: 0.1,
  newTrackThreshold: 0.6,
  matchIou: 0.2,
  buffer: 30,
};

/**
 * The fixed IoU gates of the other two stages, as in ByteTrack: low detections must overlap a
 * track well (they are less trustworthy), and a tentative track must be seen again close by.
 */
export const LOW_STAGE_MIN_IOU = 0.5;
export const TENTATIVE_STAGE_MIN_IOU = 0.3;
