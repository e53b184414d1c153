import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSharp } from '../../../src/util/loadSharp';
import {
  videoAddon,
  type VideoAddon,
  type NativeVideoEncoder,
} from '../../../src/video/videoAddon';
import { checkH264, startsDecodable } from '../../support/h264Check';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const VIDEO_DIR = repoPath('.cache', 'video-people');

function addon(): VideoAddon {
  const a = videoAddon();
  if ('problem' in a) throw new Error(a.problem);
  return a.addon;
}

/** The 16 frames of the bootstrap's real video (a cyclist passing two men), as rgb8 of w x h. */
async function videoFrames(width: number, height: number): Promise<Buffer[]> {
  const files = fs
    .readdirSync(VIDEO_DIR)
    .filter((f) => f.endsWith('.png'))
    .sort();
  return Promise.all(
    files.map((f) =>
      loadSharp()(path.join(VIDEO_DIR, f))
        .resize(width, height, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer(),
    ),
  );
}

/** BT.601 limited range, the integer form the addon documents (rgb_to_yuv420.cc). */
function referenceYuv420(rgb: Uint8Array, w: number, h: number, nv12: boolean): Buffer {
  const out = Buffer.alloc((w * h * 3) / 2);
  for (let i = 0; i < w * h; i++) {
    const r = rgb[3 * i] ?? 0;
    const g = rgb[3 * i + 1] ?? 0;
    const b = rgb[3 * i + 2] ?? 0;
    out[i] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
  }
  for (let cy = 0; cy < h / 2; cy++) {
    for (let cx = 0; cx < w / 2; cx++) {
      let r4 = 0;
      let g4 = 0;
      let b4 = 0;
      for (const [dy, dx] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ] as const) {
        const p = 3 * ((2 * cy + dy) * w + 2 * cx + dx);
        r4 += rgb[p] ?? 0;
        g4 += rgb[p + 1] ?? 0;
        b4 += rgb[p + 2] ?? 0;
      }
      const u = ((-38 * r4 - 74 * g4 + 112 * b4 + 512) >> 10) + 128;
      const v = ((112 * r4 - 94 * g4 - 18 * b4 + 512) >> 10) + 128;
      if (nv12) {
        out[w * h + cy * w + 2 * cx] = u;
        out[w * h + cy * w + 2 * cx + 1] = v;
      } else {
        out[w * h + cy * (w / 2) + cx] = u;
        out[w * h + (w * h) / 4 + cy * (w / 2) + cx] = v;
      }
    }
  }
  return out;
}

function at<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
}

async function encodeAll(
  encoder: NativeVideoEncoder,
  frames: readonly Buffer[],
  count: number,
  idrAt: readonly number[],
): Promise<{ messages: Buffer[]; keyframes: boolean[]; cpuMs: number[] }> {
  const messages: Buffer[] = [];
  const keyframes: boolean[] = [];
  const cpuMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const r = await encoder.encode(
      at(frames, i % frames.length),
      1000 + 100 * i,
      idrAt.includes(i),
    );
    assert.equal(r.packets.length, 1, `frame ${i}: one access unit per frame`);
    const [p] = r.packets;
    assert.ok(p);
    assert.equal(p.pts, 1000 + 100 * i);
    messages.push(p.data);
    keyframes.push(p.keyframe);
    cpuMs.push(r.cpuMs);
  }
  return { messages, keyframes, cpuMs };
}

describe('video addon: H.264 encoders (native/video)', function () {
  this.timeout(120_000);
  const W = 320;
  const H = 240;
  let frames: Buffer[];

  before(async () => {
    frames = await videoFrames(W, H);
  });

  /** OpenH264 at the tests' size, 300 kbit/s, planned for 10 Hz. */
  const openh264 = (): NativeVideoEncoder =>
    new (addon().VideoEncoder)({
      codec: 'openh264',
      width: W,
      height: H,
      bitrateKbps: 300,
      frameRate: 10,
    });

  it('names the libraries it was built with', () => {
    const libs = addon().libraries();
    assert.match(libs.openh264, /^\d+\.\d+\.\d+$/);
    if (libs.libavcodec !== null) assert.match(libs.libavcodec, /^libavcodec \d+/);
  });

  for (const layout of ['i420', 'nv12'] as const) {
    it(`converts rgb8 to ${layout} with exactly the documented BT.601 integer formula`, () => {
      // Every byte value in every channel, plus the real picture's.
      const w = 64;
      const h = 48;
      const rgb = Buffer.alloc(w * h * 3);
      for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 97 + (i >> 5)) & 255;
      const got = addon().convertToYuv420(rgb, w, h, layout);
      assert.ok(got.equals(referenceYuv420(rgb, w, h, layout === 'nv12')));
      const real = addon().convertToYuv420(at(frames, 3), W, H, layout);
      assert.ok(real.equals(referenceYuv420(at(frames, 3), W, H, layout === 'nv12')));
    });
  }

  const codecs = (): ('openh264' | 'x264')[] =>
    addon().libraries().libavcodecEncoders.includes('libx264')
      ? ['openh264', 'x264']
      : ['openh264'];

  for (const codec of ['openh264', 'x264'] as const) {
    it(`${codec}: one decodable access unit per frame, SPS+PPS before every IDR, IDRs only on request, no B-frames, SSIM >= 0.9`, async function () {
      if (!codecs().includes(codec)) this.skip();
      const encoder = new (addon().VideoEncoder)({
        codec,
        width: W,
        height: H,
        bitrateKbps: 300,
        frameRate: 10,
      });
      assert.ok(encoder.describe().includes(codec === 'x264' ? 'libx264' : 'openh264'));
      const count = 40;
      const { messages, keyframes } = await encodeAll(encoder, frames, count, [0, 23]);
      encoder.close();
      assert.deepEqual(
        keyframes.flatMap((k, i) => (k ? [i] : [])),
        [0, 23],
      );
      const reference = Array.from({ length: count }, (_, i) => at(frames, i % frames.length));
      const check = checkH264(messages, { frames: reference, width: W, height: H });
      assert.equal(check.messages.length, count);
      check.messages.forEach((m, i) => {
        assert.equal(m.error, '', `message ${i}`);
        assert.equal(m.frames, 1, `message ${i} decodes to one frame`);
        assert.notEqual(m.pict_types[0], 'B', `message ${i}`);
        assert.equal(m.nal_types.includes(5), keyframes[i], `message ${i} IDR`);
        if (keyframes[i]) assert.ok(startsDecodable(m), `message ${i}: ${m.nal_types.join(',')}`);
        assert.ok((m.ssim ?? 0) >= 0.9, `message ${i} SSIM ${m.ssim}`);
      });
    });
  }

  it('openh264 spends its bitrate at the picture rate it is told, not the one it opened with', async () => {
    const spent = async (told: boolean): Promise<number> => {
      const encoder = new (addon().VideoEncoder)({
        codec: 'openh264',
        width: W,
        height: H,
        bitrateKbps: 300,
        frameRate: 30,
      });
      let bytes = 0;
      const n = 60;
      for (let i = 0; i < n; i++) {
        if (i === 1 && told) assert.equal(encoder.setFrameRate(10), true);
        const r = await encoder.encode(at(frames, i % frames.length), i * 100, i === 0);
        bytes += r.packets[0]?.data.length ?? 0;
      }
      encoder.close();
      return (bytes * 8) / (n / 10) / 1000;
    };
    const untold = await spent(false);
    const told = await spent(true);
    // Pictures at 10 Hz into an encoder planning for 30: a third of each picture's budget, unless told.
    assert.ok(told > 1.3 * untold, `told ${told.toFixed(0)} kbit/s, untold ${untold.toFixed(0)}`);
    assert.ok(Math.abs(told - 300) < 0.25 * 300, `told ${told.toFixed(0)} kbit/s for 300`);
  });

  it('a second decoder joining at a forced IDR decodes from its first message', async () => {
    const encoder = openh264();
    const { messages } = await encodeAll(encoder, frames, 20, [0, 11]);
    encoder.close();
    const joined = checkH264(messages.slice(11));
    assert.deepEqual(
      joined.messages.map((m) => m.frames),
      Array<number>(9).fill(1),
    );
    assert.equal(joined.messages[0]?.pict_types[0], 'I');
  });

  it('refuses bad options and calls with errors that name them, and never two calls at once', async () => {
    const Encoder = addon().VideoEncoder;
    const base = {
      codec: 'openh264' as const,
      width: W,
      height: H,
      bitrateKbps: 300,
      frameRate: 10,
    };
    assert.throws(() => new Encoder({ ...base, width: 321 }), {
      name: 'RangeError',
      message: /even/,
    });
    assert.throws(() => new Encoder({ ...base, bitrateKbps: 0 }), {
      name: 'RangeError',
      message: /bitrateKbps/,
    });
    assert.throws(() => new Encoder({ ...base, codec: 'h265' as never }), /unknown codec 'h265'/);
    const encoder = new Encoder(base);
    assert.throws(() => void encoder.encode(Buffer.alloc(10), 0, true), {
      name: 'RangeError',
      message: /320x240 rgb8 is 230400/,
    });
    const first = encoder.encode(at(frames, 0), 0, true);
    assert.throws(() => void encoder.encode(at(frames, 1), 1, false), /still being encoded/);
    await first;
    encoder.close();
    assert.throws(() => void encoder.encode(at(frames, 1), 2, false), /after close/);
  });

  it('closing while a frame encodes frees the encoder when that frame returns', async () => {
    const encoder = openh264();
    const pending = encoder.encode(at(frames, 0), 0, true);
    encoder.close();
    const r = await pending;
    assert.equal(r.packets.length, 1);
  });

  it('h264_v4l2m2m without a V4L2 encoder fails at open with libavcodec naming the codec', function () {
    if (!addon().libraries().libavcodecEncoders.includes('h264_v4l2m2m')) this.skip();
    if (
      addon()
        .probeV4l2()
        .some((d) => d.h264Encoder)
    )
      this.skip();
    assert.throws(
      () =>
        new (addon().VideoEncoder)({
          codec: 'v4l2m2m',
          width: W,
          height: H,
          bitrateKbps: 300,
          frameRate: 10,
        }),
      /h264_v4l2m2m/,
    );
  });

  it('the test fault switch fails encode after N frames only while HTP_PERCEPTION_TEST_VIDEO_FAULTS is set', async () => {
    const options = {
      codec: 'openh264' as const,
      width: W,
      height: H,
      bitrateKbps: 300,
      frameRate: 10,
      testFailAfterFrames: 2,
    };
    const saved = process.env.HTP_PERCEPTION_TEST_VIDEO_FAULTS;
    try {
      delete process.env.HTP_PERCEPTION_TEST_VIDEO_FAULTS;
      const unarmed = new (addon().VideoEncoder)(options);
      for (let i = 0; i < 4; i++) await unarmed.encode(at(frames, i), i, i === 0);
      unarmed.close();
      process.env.HTP_PERCEPTION_TEST_VIDEO_FAULTS = '{}';
      const armed = new (addon().VideoEncoder)(options);
      await armed.encode(at(frames, 0), 0, true);
      await armed.encode(at(frames, 1), 1, false);
      await assert.rejects(
        armed.encode(at(frames, 2), 2, false),
        /test fault: the encoder stopped answering/,
      );
      armed.close();
    } finally {
      if (saved === undefined) delete process.env.HTP_PERCEPTION_TEST_VIDEO_FAULTS;
      else process.env.HTP_PERCEPTION_TEST_VIDEO_FAULTS = saved;
    }
  });

  it('probes V4L2 nodes: none in an empty folder, and a node that is no V4L2 device with its error', () => {
    const dir = tempDir('htp-dev-');
    assert.deepEqual(addon().probeV4l2(dir), []);
    fs.writeFileSync(path.join(dir, 'video0'), '');
    const [d] = addon().probeV4l2(dir);
    assert.ok(d);
    assert.equal(d.path, path.join(dir, 'video0'));
    assert.match(d.error, /VIDIOC_QUERYCAP/);
    assert.equal(d.h264Encoder, false);
  });
});
