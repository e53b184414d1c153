import { spawn } from 'node:child_process';
import { packagePath } from '../../src/index';

const PEER = packagePath('tools', 'ros', 'image_peer.py');

/** What the rclpy camera reports when it is done: frames sent and the rate it kept. */
export interface PublisherRun {
  readonly sent: number;
  readonly rate_hz: number;
}

/**
 * A separate rclpy process (tools/ros/image_peer.py) publishing `seconds` of rgb8 frames of one
 * size at `rateHz` on `topic`, once a subscriber is there; resolves when it is done.
 */
export function runImagePeer(
  width: number,
  height: number,
  seconds: number,
  topic: string,
  rateHz: number,
): Promise<PublisherRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'python3',
      [
        PEER,
        'publish',
        '--topic',
        topic,
        '--width',
        String(width),
        '--height',
        String(height),
        '--rate',
        String(rateHz),
        '--count',
        String(Math.round(seconds * rateHz)),
        '--settle',
        '1.0',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`publisher failed (${code}): ${out}`));
      else resolve(JSON.parse(line) as PublisherRun);
    });
  });
}
