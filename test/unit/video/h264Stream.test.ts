import * as assert from 'node:assert/strict';
import type { ChosenEncoder } from '../../../src/video/encoderChoice';
import { H264Stream, type VideoSettings } from '../../../src/video/h264Stream';
import type {
  EncodedPacket,
  EncodeResult,
  NativeEncoderOptions,
  NativeVideoEncoder,
} from '../../../src/video/videoAddon';

const HARDWARE: ChosenEncoder = {
  codec: 'v4l2m2m',
  hardware: true,
  label: 'V4L2 hardware',
  reason: '',
};
const SOFTWARE: ChosenEncoder = {
  codec: 'openh264',
  hardware: false,
  label: 'OpenH264',
  reason: '',
};

/** A stand-in encoder: resolves when the test releases it; packet delay 0 or 1 frame. */
class FakeEncoder implements NativeVideoEncoder {
  readonly calls: { pts: number; forceIdr: boolean }[] = [];
  closed = false;
  failNext = '';
  private release: (() => void)[] = [];
  private held: { pts: number; idr: boolean } | undefined;

  constructor(
    readonly options: NativeEncoderOptions,
    private readonly delayed = false,
  ) {}

  encode(_rgb: Uint8Array, pts: number, forceIdr: boolean): Promise<EncodeResult> {
    this.calls.push({ pts, forceIdr });
    return new Promise((resolve, reject) => {
      this.release.push(() => {
        if (this.failNext) {
          reject(new Error(this.failNext));
          return;
        }
        const out: EncodedPacket[] = [];
        const packet = (p: number, idr: boolean): EncodedPacket => ({
          data: Buffer.from([0, 0, 0, 1, idr ? 0x65 : 0x41]),
          pts: p,
          keyframe: idr,
        });
        if (this.delayed) {
          if (this.held) out.push(packet(this.held.pts, this.held.idr));
          this.held = { pts, idr: forceIdr };
        } else out.push(packet(pts, forceIdr));
        resolve({ packets: out, convertMs: 0.1, encodeMs: 1, cpuMs: 1.1 });
      });
    });
  }

  /** Lets the oldest pending encode finish. */
  finish(): void {
    const r = this.release.shift();
    assert.ok(r, 'no encode pending');
    r();
  }

  describe(): string {
    return `fake ${this.options.codec}`;
  }

  readonly rates: number[] = [];
  /** libavcodec's encoders cannot change their rate. */
  canSetRate = true;
  setFrameRate(fps: number): boolean {
    if (!this.canSetRate) return false;
    this.rates.push(fps);
    return true;
  }

  close(): void {
    this.closed = true;
  }
}

function harness(chosen: ChosenEncoder, delayed = false) {
  const encoders: FakeEncoder[] = [];
  const published: { context: string; keyframe: boolean }[] = [];
  const warnings: string[] = [];
  let now = 1000;
  let settings: VideoSettings = { bitrateKbps: 300, keyframeIntervalS: 2, frameRate: 10 };
  const stream = new H264Stream<string>(
    {
      open: (_codec, options) => {
        if (
          options.codec === 'v4l2m2m' &&
          encoders.some((e) => e.options.codec === 'v4l2m2m' && e.failNext)
        ) {
          throw new Error('device gone');
        }
        const e = new FakeEncoder(options, delayed);
        encoders.push(e);
        return e;
      },
      publish: (p, context) => {
        published.push({ context, keyframe: p.keyframe });
        return true;
      },
      warn: (l) => warnings.push(l),
      now: () => now,
    },
    chosen,
    SOFTWARE,
    () => settings,
  );
  const rgb = new Uint8Array(16 * 16 * 3);
  const flush = () => new Promise((r) => setImmediate(r));
  return {
    stream,
    encoders,
    published,
    warnings,
    rgb,
    flush,
    advance: (ms: number) => (now += ms),
    set: (s: Partial<VideoSettings>) => (settings = { ...settings, ...s }),
    last: () => {
      const e = encoders[encoders.length - 1];
      assert.ok(e);
      return e;
    },
  };
}

describe('H264Stream', () => {
  it('encodes one picture at a time, keeps only the newest waiting and counts the rest', async () => {
    const h = harness(SOFTWARE);
    h.stream.offer(h.rgb, 16, 16, 'a');
    h.stream.offer(h.rgb, 16, 16, 'b');
    h.stream.offer(h.rgb, 16, 16, 'c');
    h.stream.offer(h.rgb, 16, 16, 'd');
    await h.flush();
    h.last().finish();
    await h.flush();
    h.last().finish();
    await h.stream.idle();
    assert.deepEqual(
      h.published.map((p) => p.context),
      ['a', 'd'],
    );
    assert.equal(h.stream.stats.dropped, 2);
    assert.equal(h.stream.stats.frames, 2);
  });

  it('IDR on the first picture, on request (a viewer joined) and when the interval passes', async () => {
    const h = harness(SOFTWARE);
    const step = async (ms: number) => {
      h.advance(ms);
      h.stream.offer(h.rgb, 16, 16, 'x');
      await h.flush();
      h.last().finish();
      await h.stream.idle();
    };
    await step(0);
    await step(100);
    h.stream.requestKeyframe();
    await step(100);
    await step(100);
    await step(2000);
    assert.deepEqual(
      h.last().calls.map((c) => c.forceIdr),
      [true, false, true, false, true],
    );
    assert.equal(h.stream.stats.keyframes, 3);
  });

  it('a bitrate or size change opens a new encoder that starts with an IDR', async () => {
    const h = harness(SOFTWARE);
    const step = async (w: number) => {
      h.stream.offer(new Uint8Array(w * 16 * 3), w, 16, 'x');
      await h.flush();
      h.last().finish();
      await h.stream.idle();
    };
    await step(16);
    await step(16);
    h.set({ bitrateKbps: 500 });
    await step(16);
    await step(32);
    assert.equal(h.encoders.length, 3);
    assert.ok(h.encoders[0]?.closed && h.encoders[1]?.closed);
    assert.equal(h.encoders[1]?.options.bitrateKbps, 500);
    assert.deepEqual(
      h.encoders.map((e) => e.calls[0]?.forceIdr),
      [true, true, true],
    );
  });

  it('a failing hardware encoder is replaced by the software one with one warning, counted', async () => {
    const h = harness(HARDWARE);
    h.stream.offer(h.rgb, 16, 16, 'a');
    await h.flush();
    h.last().finish();
    await h.stream.idle();
    h.last().failNext = 'VIDIOC_QBUF: No such device';
    h.stream.offer(h.rgb, 16, 16, 'b');
    await h.flush();
    h.last().finish();
    await h.stream.idle();
    h.stream.offer(h.rgb, 16, 16, 'c');
    await h.flush();
    h.last().finish();
    await h.stream.idle();
    assert.equal(h.warnings.length, 1);
    assert.match(
      h.warnings[0] ?? '',
      /V4L2 hardware encoder failed \(VIDIOC_QBUF: No such device\); falling back to OpenH264/,
    );
    const s = h.stream.stats;
    assert.equal(s.fallbacks, 1);
    assert.equal(s.failures, 1);
    assert.equal(s.hardware, false);
    assert.equal(h.last().options.codec, 'openh264');
    assert.deepEqual(h.last().calls, [{ pts: h.last().calls[0]?.pts, forceIdr: true }]);
    assert.deepEqual(
      h.published.map((p) => p.context),
      ['a', 'c'],
    );
  });

  it('a failing software encoder is opened again for the next picture, warned once', async () => {
    const h = harness(SOFTWARE);
    for (const fail of [true, true, false]) {
      h.stream.offer(h.rgb, 16, 16, 'x');
      await h.flush();
      if (fail) h.last().failNext = 'boom';
      h.last().finish();
      await h.stream.idle();
    }
    assert.equal(h.warnings.length, 1);
    assert.equal(h.stream.stats.failures, 2);
    assert.equal(h.encoders.length, 3);
    assert.equal(h.stream.stats.frames, 1);
  });

  it('publishes a packet that comes out a frame late with its own picture context', async () => {
    const h = harness(SOFTWARE, true);
    for (const c of ['a', 'b', 'c']) {
      h.advance(100);
      h.stream.offer(h.rgb, 16, 16, c);
      await h.flush();
      h.last().finish();
      await h.stream.idle();
    }
    assert.deepEqual(
      h.published.map((p) => [p.context, p.keyframe]),
      [
        ['a', true],
        ['b', false],
      ],
    );
  });

  it('tells the encoder the rate pictures really come at once it drifts by a fifth', async () => {
    const h = harness(SOFTWARE);
    h.set({ frameRate: 30 });
    for (let i = 0; i < 12; i++) {
      h.advance(100);
      h.stream.offer(h.rgb, 16, 16, 'x');
      await h.flush();
      h.last().finish();
      await h.stream.idle();
    }
    const rates = h.last().rates;
    assert.equal(h.last().options.frameRate, 30);
    assert.ok(rates.length >= 1 && rates.length <= 3, `rates ${rates.join(' ')}`);
    assert.ok(Math.abs((rates[rates.length - 1] ?? 0) - 10) < 0.5, `rates ${rates.join(' ')}`);
  });

  it('reopens an encoder that cannot be told the rate, once the measurement settles, with an IDR', async () => {
    const h = harness(SOFTWARE);
    h.set({ frameRate: 30 });
    for (let i = 0; i < 16; i++) {
      h.advance(100);
      h.stream.offer(h.rgb, 16, 16, 'x');
      await h.flush();
      h.last().canSetRate = false;
      h.last().finish();
      await h.stream.idle();
    }
    assert.deepEqual(
      h.encoders.map((e) => e.options.frameRate),
      [30, 10],
    );
    assert.equal(h.encoders[1]?.calls[0]?.forceIdr, true);
    assert.equal(h.encoders[0]?.calls.length, 11, 'reopened once ten intervals were measured');
  });

  it('a pause in the pictures restarts the rate measurement instead of reopening for a rate near zero', async () => {
    const h = harness(SOFTWARE);
    h.set({ frameRate: 10 });
    const step = async (ms: number) => {
      h.advance(ms);
      h.stream.offer(h.rgb, 16, 16, 'x');
      await h.flush();
      h.last().canSetRate = false;
      h.last().finish();
      await h.stream.idle();
    };
    for (let i = 0; i < 12; i++) await step(100);
    await step(5000); // nobody watched for five seconds
    for (let i = 0; i < 12; i++) await step(100);
    assert.deepEqual(
      h.encoders.map((e) => e.options.frameRate),
      [10],
    );
  });
});
