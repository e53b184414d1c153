/**
 * ~/annotated/foxglove over real DDS: image_source plays the bootstrap's real video (a cyclist
 * passing two men), a perception node draws and encodes it, rclpy viewers subscribe, and two
 * decoders independent of the encoder take every message one received: PyAV's own FFmpeg
 * (tools/video/h264_check.py) and WebCodecs in Debian's Chromium (the decoder of Foxglove's web
 * app, test/support/webCodecsDecode.ts).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkH264Files, readPacketFile, startsDecodable } from '../../support/h264Check';
import { repoPath } from '../../support/paths';
import type { StampedMsg } from '../../support/rosClient';
import {
  jsonSummary,
  nodeCommand,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';
import { tempDir } from '../../support/tempDir';
import { decodeWithWebCodecs } from '../../support/webCodecsDecode';

const LISTENER = repoPath('test', 'fixtures', 'ros', 'video_listener.py');
const VIDEO_FRAMES = repoPath('.cache', 'video-people');

interface ListenerSummary {
  width: number;
  height: number;
  messages: {
    stamp: [number, number];
    frame_id: string;
    format: string;
    bytes: number;
    paired: boolean;
  }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('~/annotated/foxglove: the annotated view as H.264 for Foxglove, over real DDS', function () {
  this.timeout(180_000);
  const bed = useRosTestBed();
  let frames: string;

  before(() => {
    frames = tempDir('htp-video-frames-');
    for (const f of fs.readdirSync(VIDEO_FRAMES)) {
      fs.copyFileSync(path.join(VIDEO_FRAMES, f), path.join(frames, f));
    }
  });

  it('encodes nothing unwatched; a viewer joining mid-stream starts at an IDR with SPS and PPS, and every message decodes to one frame of the annotated picture', async () => {
    bed.own(startPhotoSource('vid_src', frames, 10, 'front_camera'));
    // Keyframes only when asked: an IDR first in the second viewer's stream can only be the one
    // its joining forced. 1000 kbit/s: this checks the pictures are the annotated ones (a wrong
    // colour conversion or frame falls far below 0.9), not the rate's quality, which bench:video
    // measures; at the default 500 the first pictures (planned for 30 Hz until the rate is
    // measured) came within 0.01 of the bound in local runs, too close for a slower machine.
    const node = bed.own(
      startNode('perceptionNode', 'vid_it', [
        'threads:=1',
        'video_keyframe_interval_s:=600.0',
        'video_bitrate_kbps:=1000',
      ]),
    );
    await node.waitFor(
      /~\/annotated\/foxglove \(H\.264\) encodes with software \(OpenH264 \d+\.\d+\.\d+\) \(video_encoder auto: no V4L2/,
      60_000,
    );
    await sleep(3000);
    const unwatched = await bed.client.diagnostics('vid_it');
    assert.ok(Number(unwatched.values.received) > 0, 'frames flow');
    assert.equal(unwatched.values.video_frames, '0', 'nothing encoded while nobody watches');
    assert.equal(unwatched.values.video_encoders_opened, '0');
    assert.ok(Number(unwatched.values.video_unwatched) > 0);

    // A first viewer keeps the encoder busy, so the second joins a running stream.
    await bed.client.watchAs(
      'first',
      '/vid_it/annotated/foxglove',
      'foxglove_msgs/msg/CompressedVideo',
      'default',
    );
    const first = await bed.client.take<StampedMsg>('first', 10, 30);
    assert.ok(first.length >= 10);
    for (const m of first) assert.equal(m.frame_id, 'front_camera');

    const out = tempDir('htp-video-');
    const listener = bed.own(startProcess('python3', [LISTENER, 'vid_it', '30', '60', out]));
    await listener.waitFor(/^ready$/m, 30_000);
    assert.equal(await listener.exited(), 0, listener.stderr());
    const s = jsonSummary<ListenerSummary>(listener);
    assert.equal(s.messages.length, 30, `${s.messages.length} video messages`);
    for (const m of s.messages) {
      assert.equal(m.frame_id, 'front_camera', 'the camera image header');
      assert.equal(m.format, 'h264');
    }
    const check = checkH264Files(path.join(out, 'packets.bin'), {
      file: path.join(out, 'reference.rgb'),
      width: s.width,
      height: s.height,
    });
    const [start] = check.messages;
    assert.ok(start && startsDecodable(start), `first message ${JSON.stringify(start)}`);
    assert.equal(start.pict_types[0], 'I');
    check.messages.forEach((m, i) => {
      assert.equal(m.error, '', `message ${i}`);
      assert.equal(m.frames, 1, `message ${i} decodes to exactly one frame`);
      assert.notEqual(m.pict_types[0], 'B', `message ${i}`);
      if (m.nal_types.includes(5))
        assert.ok(startsDecodable(m), `message ${i} IDR without SPS/PPS`);
      assert.equal(m.width, s.width);
    });
    const paired = check.messages.filter((_, i) => s.messages[i]?.paired);
    assert.ok(paired.length >= 20, `only ${paired.length} of 30 paired with ~/annotated by stamp`);
    const ssims = paired.map((m) => Number((m.ssim ?? 0).toFixed(3)));
    assert.ok(
      ssims.every((x) => x >= 0.9),
      `SSIM against ~/annotated: ${ssims.join(' ')} (bytes ${check.messages.map((m) => m.bytes).join(' ')})`,
    );

    // The decoder of Foxglove's web app: WebCodecs in Debian's Chromium, on the same messages.
    const messages = readPacketFile(path.join(out, 'packets.bin'));
    const web = await decodeWithWebCodecs(
      messages,
      check.messages.map((m) => m.nal_types.includes(5)),
    );
    assert.equal(web.supported, true, `${web.codec} not supported by ${web.userAgent}`);
    assert.deepEqual(web.errors, []);
    assert.deepEqual(
      web.timestamps,
      messages.map((_, i) => i),
      'WebCodecs: one frame per message, in order',
    );
    assert.deepEqual([web.width, web.height], [s.width, s.height]);

    const d = await bed.client.diagnostics('vid_it');
    assert.match(d.values.video_encoder ?? '', /^software \(OpenH264/);
    assert.equal(d.values.video_hardware, 'false');
    assert.ok(Number(d.values.video_joins) >= 2, `joins ${d.values.video_joins}`);
    // One IDR when the first viewer opened the encoder, one when the second joined.
    assert.equal(d.values.video_keyframes, '2');
    assert.equal(d.values.video_failures, '0');
  });

  it('video_encoder v4l2 where no V4L2 encoder is found: refused at configure and as a live change, naming what was probed', async () => {
    // A node process whose autostart configure fails exits with its one-line error.
    const refused = bed.own(startNode('perceptionNode', 'vid_v4l2', ['video_encoder:=v4l2']));
    assert.notEqual(await refused.exited(), 0);
    assert.match(
      refused.stderr(),
      /vid_v4l2: video_encoder v4l2: no V4L2 memory-to-memory H\.264 encoder: probed (no \/dev\/video\* device|\/dev\/video)/,
    );
    const results = await bed.client.setParams('vid_it', { video_encoder: 'v4l2' });
    assert.equal(results[0]?.successful, false);
    assert.match(
      results[0]?.reason ?? '',
      /video_encoder v4l2: no V4L2 memory-to-memory H\.264 encoder: probed /,
    );
    const taken = await bed.client.setParams('vid_it', { video_bitrate_kbps: 800 });
    assert.equal(taken[0]?.successful, true);
  });

  it('an encoder that fails mid-stream is reopened: one warning, counted, the stream resumes at an IDR that decodes', async () => {
    // The first tests' camera and node are done with (left running, they would keep encoding
    // beside this one); a camera of its own.
    await bed.stopOwned();
    bed.own(
      startProcess('node', [
        ...nodeCommand('imageSourceNode'),
        '--ros-args',
        '-r',
        '__node:=vid_fault_src',
        '-r',
        'image:=/vid_fault/camera',
        '-p',
        `directory:=${frames}`,
        '-p',
        'rate_hz:=10.0',
      ]),
    );
    // The addon's test switch: every encoder fails its 16th picture (a board's encoder that
    // stops answering); the node must carry on.
    const node = bed.own(
      startProcess(
        'node',
        [
          ...nodeCommand('perceptionNode'),
          '--ros-args',
          '-r',
          '__node:=vid_fault',
          '-r',
          'image:=/vid_fault/camera',
          '-p',
          'threads:=1',
          '-p',
          'video_keyframe_interval_s:=600.0',
        ],
        { HTP_PERCEPTION_TEST_VIDEO_FAULTS: '{"failAfterFrames": 15}' },
      ),
    );
    await node.waitFor(/encodes with software \(OpenH264/, 60_000);
    const out = tempDir('htp-video-fault-');
    const listener = bed.own(startProcess('python3', [LISTENER, 'vid_fault', '40', '60', out]));
    await listener.waitFor(/^ready$/m, 30_000);
    assert.equal(await listener.exited(), 0, listener.stderr());
    const s = jsonSummary<ListenerSummary>(listener);
    assert.equal(s.messages.length, 40);
    const check = checkH264Files(path.join(out, 'packets.bin'));
    check.messages.forEach((m, i) => {
      assert.equal(m.error, '', `message ${i}`);
      assert.equal(m.frames, 1, `message ${i} decodes to one frame`);
    });
    // IDRs where each encoder started: the first picture, then after each failure.
    const idrs = check.messages.flatMap((m, i) => (m.nal_types.includes(5) ? [i] : []));
    assert.deepEqual(idrs, [0, 15, 30], `IDRs at ${idrs.join(', ')}`);
    for (const i of idrs) assert.ok(startsDecodable(check.messages[i]!), `message ${i}`);
    const d = await bed.client.diagnostics('vid_fault');
    assert.ok(Number(d.values.video_failures) >= 2, `failures ${d.values.video_failures}`);
    assert.ok(Number(d.values.video_encoders_opened) >= 3);
    assert.match(d.values.video_last_error ?? '', /test fault: the encoder stopped answering/);
    // rclnodejs logs WARN and above to stderr.
    const warnings = `${node.stdout()}\n${node.stderr()}`
      .split('\n')
      .filter((l) => /video: software .* failed/.test(l));
    assert.equal(warnings.length, 1, `warned ${warnings.length} times:\n${warnings.join('\n')}`);
    assert.match(warnings[0] ?? '', /test fault: the encoder stopped answering.*opened again/);
  });
});
