/**
 * The video rows of `doctor`: whether the video addon loads and what it links (a stack row, with
 * the licence of each library), and which encoder `video_encoder: auto` takes on this machine, with
 * every V4L2 node probed (a device row: what a board needs for hardware encoding).
 */
import * as path from 'node:path';
import { chooseEncoder, describeProbe } from '../../video/encoderChoice';
import { videoAddon } from '../../video/videoAddon';
import { type DoctorRow, ok } from './doctorRow';

const BOARD_NEEDS =
  "a V4L2 memory-to-memory H.264 encoder node taking NV12 (on a QCS6490, the Venus/Iris video encoder's /dev/video* node, readable by the node's user: group 'video') and a libavcodec with h264_v4l2m2m";

/**
 * `root`: where /dev is read (a fixture tree with --root); `board`: whether this is (or stands for)
 * a board, where no hardware encoder is worth a warning rather than a note.
 */
export function videoRows(root: string, board: boolean): DoctorRow[] {
  const loaded = videoAddon();
  if ('problem' in loaded) {
    // Optional: nodes run without it, so the row warns rather than fails.
    return [
      {
        section: 'stack',
        check: 'video addon',
        status: 'warn',
        detail: `no ~/annotated/foxglove: ${loaded.problem}`,
        fix: 'apt-get install libopenh264-dev libavcodec-dev pkg-config && bash scripts/bootstrap.sh 66-video',
      },
    ];
  }
  const libs = loaded.addon.libraries();
  const linked = [`OpenH264 ${libs.openh264} (BSD-2-Clause)`];
  if (libs.libavcodec) {
    linked.push(
      `${libs.libavcodec} with ${libs.libavcodecEncoders.join(', ') || 'no H.264 encoder'} (LGPL-2.1+ as FFmpeg ships it; GPL as Debian and Ubuntu build it; libx264 GPL)`,
    );
  }
  const dev = path.join(root, 'dev');
  const devices = loaded.addon.probeV4l2(dev);
  const chosen = chooseEncoder('auto', devices, libs);
  const probed = describeProbe(devices, dev);
  const software: DoctorRow = board
    ? {
        section: 'device',
        check: 'video encoder',
        status: 'warn',
        detail: `${chosen.label} (video_encoder auto): no hardware encoder; probed ${probed}`,
        fix: `hardware encoding needs ${BOARD_NEEDS}`,
      }
    : {
        section: 'device',
        check: 'video encoder',
        status: 'n/a',
        detail: `${chosen.label} (video_encoder auto); probed ${probed}. Hardware encoding needs ${BOARD_NEEDS}`,
      };
  return [
    ok('stack', 'video addon', `loads; links ${linked.join(' and ')}`),
    chosen.hardware ? ok('device', 'video encoder', `${chosen.label}: probed ${probed}`) : software,
  ];
}
