/**
 * The `video_encoder` parameter's values (config checks them, the video layer means them):
 * auto (the board's V4L2 H.264 encoder when one is found, else OpenH264), v4l2 (only the board's),
 * software (OpenH264, BSD), x264 (through libavcodec, GPL: only when chosen).
 */
export const VIDEO_ENCODER_CHOICES = ['auto', 'v4l2', 'software', 'x264'] as const;
export type VideoEncoderChoice = (typeof VIDEO_ENCODER_CHOICES)[number];
