import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { RunningProcess, startPhotoSource, startProcess } from '../../support/rosProcess';
import { photoDirWith } from '../../support/photos';

/** config/fastdds_localhost.xml's segment_size: five 1280x720 frames. */
const PROFILE_SEGMENT_BYTES = 16 * 1024 * 1024;

/** Size of each Fast DDS shared-memory segment (/dev/shm/fast{dds,rtps}_<guid>) a process has mapped. */
function mappedSegments(pid: number): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
    // Port files (fast*_port<n>) are queues, not segments: only <guid> names (fastdds_ in Fast DDS 3.x, fastrtps_ in 2.x).
    const m = /^([0-9a-f]+)-([0-9a-f]+) .* (\/dev\/shm\/fast(?:dds|rtps)_[0-9a-f]+)$/.exec(line);
    if (!m) continue;
    const bytes = parseInt(m[2]!, 16) - parseInt(m[1]!, 16);
    sizes.set(m[3]!, Math.max(sizes.get(m[3]!) ?? 0, bytes));
  }
  return sizes;
}

/** The largest segment a process maps that is not one of `others` (a peer's, opened to read). */
function largestOwnSegment(pid: number, others: ReadonlySet<string> = new Set()): number {
  let largest = 0;
  for (const [file, bytes] of mappedSegments(pid))
    if (!others.has(file)) largest = Math.max(largest, bytes);
  return largest;
}

/**
 * Every participant of the test environment, ours (rclnodejs) and rclpy's, runs with our Fast DDS
 * profile. Fast DDS 2.x (Jazzy) and 3.x (Kilted) read the profile from differently named variables;
 * a distro that missed it fell back to 512 KB segments, sent camera frames as UDP fragments and lost
 * them. The segments a process maps show which profile its participant loaded.
 */
describe('Fast DDS profile in the test environment', function () {
  this.timeout(60_000);
  const procs: RunningProcess[] = [];
  let photoDir: string;
  before(() => {
    photoDir = photoDirWith('person.jpg');
  });
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  it("gives our node and an rclpy node the profile's 16 MB shared-memory segments", async function () {
    // One after the other, so the first one's segments are known before the second maps them.
    const source = startPhotoSource('profile_src', photoDir, 2);
    procs.push(source);
    await source.waitFor(/publishing/, 30_000);
    const sourceSegments = new Set(mappedSegments(source.child.pid!).keys());
    const ours = largestOwnSegment(source.child.pid!);
    const peer = startProcess('python3', [
      '-c',
      'import rclpy, time\n' +
        'rclpy.init()\n' +
        'node = rclpy.create_node("profile_peer")\n' +
        'print("ready", flush=True)\n' +
        'time.sleep(60)\n',
    ]);
    procs.push(peer);
    await peer.waitFor(/^ready$/m, 30_000);
    const rclpys = largestOwnSegment(peer.child.pid!, sourceSegments);
    // Each participant also maps a small segment of its own (512 KB, not the transport's).
    assert.ok(ours >= PROFILE_SEGMENT_BYTES, `image_source's largest segment is ${ours} bytes`);
    assert.ok(
      rclpys >= PROFILE_SEGMENT_BYTES,
      `the rclpy node's largest segment is ${rclpys} bytes`,
    );
  });
});
