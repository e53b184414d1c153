import { strict as assert } from 'node:assert';
import { AnnotatedStream, AnnotatedSinks } from '../../../src/annotate/annotatedStream';
import type { Annotation } from '../../../src/annotate/annotationTypes';
import type { Frame } from '../../../src/core/frame';

const frame = (encoding: Frame['encoding'] = 'rgb8'): Frame => ({
  data: new Uint8Array(8 * 6 * 3),
  width: 8,
  height: 6,
  step: 8 * 3,
  encoding,
});
const EMPTY: Annotation = { boxes: [], keypoints: [] };
const OPTIONS = { jpegQuality: 70, annotatedMaxRateHz: 0, annotatedMaxWidth: 0 };

function sinks(watching: { jpeg: boolean; raw: boolean }) {
  const jpegs: number[] = [];
  const raws: number[] = [];
  const sizes: [number, number][] = [];
  const s: AnnotatedSinks<number> = {
    wantsJpeg: () => watching.jpeg,
    wantsRaw: () => watching.raw,
    publishJpeg: (jpeg, ctx) => {
      assert.equal(jpeg[0], 0xff, 'a JPEG');
      jpegs.push(ctx);
    },
    publishRaw: (rgb, w, h, ctx) => {
      assert.equal(rgb.length, w * h * 3);
      raws.push(ctx);
      sizes.push([w, h]);
    },
  };
  return { s, jpegs, raws, sizes };
}

describe('AnnotatedStream', () => {
  it('never makes the caller wait: offer returns before anything is drawn, the newest offer wins', async () => {
    const { s, jpegs } = sinks({ jpeg: true, raw: false });
    const stream = new AnnotatedStream(
      s,
      () => OPTIONS,
      () => undefined,
    );
    let built = 0;
    for (let i = 1; i <= 5; i++) {
      stream.offer(frame(), () => (built++, EMPTY), i);
    }
    assert.deepEqual(jpegs, [], 'nothing drawn inside offer');
    assert.equal(built, 0, 'the annotation is built by the renderer, not the caller');
    await new Promise((r) => setTimeout(r, 50));
    await stream.idle();
    assert.deepEqual(jpegs, [5], 'only the newest of a burst is drawn');
    assert.equal(built, 1);
    assert.equal(stream.stats.skipped, 4);
    assert.equal(stream.stats.rendered, 1);
  });

  it('draws nothing while nobody watches, and tells once about encodings it cannot draw', async () => {
    const watching = { jpeg: false, raw: false };
    const { s, jpegs, raws } = sinks(watching);
    const undrawable: string[] = [];
    const stream = new AnnotatedStream(
      s,
      () => OPTIONS,
      (e) => undrawable.push(e),
    );
    stream.offer(frame(), () => EMPTY, 1);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual([jpegs, raws], [[], []]);
    watching.raw = true;
    // Every encoding the intake accepts is drawable now (yuyv, nv12 too); one it might accept
    // later is told about, not drawn.
    stream.offer(frame('bayer_rggb8' as Frame['encoding']), () => EMPTY, 2);
    assert.deepEqual(undrawable, ['bayer_rggb8']);
    stream.offer(frame('bgr8'), () => EMPTY, 3);
    await new Promise((r) => setTimeout(r, 50));
    await stream.idle();
    assert.deepEqual(raws, [3]);
    assert.equal(stream.stats.unwatched, 1, 'the unwatched offer is counted');
  });

  it('keeps to annotated_max_rate_hz on its own clock: a 30 Hz camera gives 10 pictures a second', async () => {
    const { s, jpegs } = sinks({ jpeg: true, raw: false });
    let now = 0;
    const stream = new AnnotatedStream(
      s,
      () => ({ ...OPTIONS, annotatedMaxRateHz: 10 }),
      () => undefined,
      () => now,
    );
    for (let i = 0; i < 30; i++) {
      // A camera at 30 Hz with a little jitter; each accepted offer is drawn before the next.
      now = i * (1000 / 30) + (i % 2 ? 3 : -3);
      stream.offer(frame(), () => EMPTY, i);
      // The renderer starts on a setImmediate queued by offer(); one queued now runs after it, so
      // the drawing has taken the offer before idle() (which drops a pending offer). A timer here
      // raced it: under load a 1 ms timer can fire before the check phase.
      await new Promise((r) => setImmediate(r));
      await stream.idle();
    }
    assert.equal(jpegs.length, 10);
    assert.equal(stream.stats.rateLimited, 20);
  });

  it('scales pictures wider than annotated_max_width down, keeping the aspect', async () => {
    const { s, sizes } = sinks({ jpeg: false, raw: true });
    const stream = new AnnotatedStream(
      s,
      () => ({ ...OPTIONS, annotatedMaxWidth: 4 }),
      () => undefined,
    );
    stream.offer(frame(), () => EMPTY, 1);
    await new Promise((r) => setTimeout(r, 50));
    await stream.idle();
    assert.deepEqual(sizes, [[4, 3]]);
  });
});
