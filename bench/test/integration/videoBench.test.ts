import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../../test/support/paths';
import { privateDomainId, startProcess } from '../../../test/support/rosProcess';

interface VideoBenchJson {
  cpu: string;
  video: { width: number; height: number; frames: number };
  codec: {
    codec: string;
    frames: number;
    kbytes_per_s: number;
    ssim_mean: number;
    keyframes: number;
  }[];
  dds: {
    viewer: string;
    detections_hz: number;
    view_hz: number;
    view_kbytes_per_s: number;
    video_frames: number;
  }[];
}

describe('npm run bench:video (smoke: a few frames, one size, one rate)', function () {
  // Real processes: the rclpy camera, a perception node with the HTP stand-in, this benchmark
  // watching; the real video, the real detector drawing, the addon encoding, PyAV decoding.
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compares JPEG with H.264 in process and over DDS, and writes JSON and a chart', async function () {
    const json = path.join(dir, 'video.json');
    const png = path.join(dir, 'video.png');
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'bench', 'src', 'videoBench.js'),
        ...['--frames', '12', '--sizes', '320x240', '--rates', '10', '--bitrates', '300'],
        ...['--x264', '300'],
        ...['--seconds', '2', '--json', json, '--png', png],
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as VideoBenchJson;
    assert.ok(r.cpu.length > 0);
    assert.deepEqual([r.video.width, r.video.height, r.video.frames], [768, 576, 12]);
    assert.deepEqual(
      r.codec.map((c) => c.codec),
      ['jpeg q75', 'h264 300 kbit/s', 'x264 300 kbit/s'],
    );
    const [jpeg, h264, x264] = r.codec;
    assert.ok(jpeg && h264 && x264);
    for (const c of r.codec) {
      assert.equal(c.frames, 12);
      assert.ok(c.ssim_mean > 0.8 && c.ssim_mean <= 1, JSON.stringify(c));
    }
    assert.equal(jpeg.keyframes, 12);
    assert.equal(h264.keyframes, 1, 'one IDR in 1.2 s at a 2 s interval');
    assert.equal(x264.keyframes, 1);
    assert.ok(h264.kbytes_per_s < jpeg.kbytes_per_s / 3, JSON.stringify(r.codec));
    assert.deepEqual(
      r.dds.map((d) => d.viewer),
      ['none', 'jpeg q75', 'h264 300 kbit/s', 'x264 300 kbit/s', 'none'],
    );
    for (const d of r.dds) {
      assert.ok(d.detections_hz > 5, JSON.stringify(d));
      if (d.viewer === 'none') assert.equal(d.view_hz, 0);
      else assert.ok(d.view_hz > 5 && d.view_kbytes_per_s > 0, JSON.stringify(d));
      // Nothing is encoded unless a video viewer watches.
      assert.equal(d.video_frames > 0, /^(h264|x264)/.test(d.viewer), JSON.stringify(d));
    }
    assert.ok(fs.statSync(png).size > 1000);
    assert.match(p.stdout(), /codec \(in process; /);
    assert.match(p.stdout(), /over DDS \(HTP stand-in node; /);
  });
});
