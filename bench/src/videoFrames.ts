import { execFileSync } from 'node:child_process';
import { packagePath } from '../../src/index';

/** The real video's frames as packed rgb8 files per size, and what the video itself is. */
export interface VideoFrames {
  readonly source: { readonly width: number; readonly height: number; readonly fps: number };
  /** Per "WxH": the frame files in order. */
  readonly files: Readonly<Record<string, readonly string[]>>;
  readonly video: string;
}

/**
 * The first `count` frames of opencv-doc's vtest.avi (bench/tools/video-source.sh) at each size,
 * written by bench/tools/video_frames.py into `outDir`.
 */
export function writeVideoFrames(
  outDir: string,
  count: number,
  sizes: readonly string[],
): VideoFrames {
  const video = execFileSync('bash', [packagePath('bench', 'tools', 'video-source.sh')], {
    encoding: 'utf8',
  }).trim();
  const out = execFileSync(
    packagePath('.cache', 'tools-venv', 'bin', 'python'),
    [packagePath('bench', 'tools', 'video_frames.py'), video, outDir, String(count), ...sizes],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const parsed = JSON.parse(out) as Omit<VideoFrames, 'video'>;
  return { ...parsed, video };
}
