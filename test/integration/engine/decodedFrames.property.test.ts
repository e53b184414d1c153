/**
 * The native side of hostile input: whatever frame the Image decoder accepts (every encoding, any
 * step from the minimum up, pixel data exactly as long as the geometry needs, nothing after it)
 * goes through the addon's preprocessing and a tiny model, whole or through a region that may
 * leave the image. The addon must answer every one (resolve; only a region may be refused, with
 * its coded error), and under scripts/asan.sh, which runs this folder, read no byte past the frame.
 */
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { decodeImage } from '../../../src/ros/codecs/imageCodec';
import { requiredDataBytes } from '../../../src/core/imageEncoding';
import { nativeAddon, type NativeRoi, type NativeSession } from '../../../src/engine/nativeAddon';
import { propertyCheckAsync } from '../../support/propertyCheck';
import { representation, validImage, writeImage } from '../../support/rosMessageArbitraries';
import { convOptions } from './engineFixtures';

/** Small sides only: every case runs the model once (a few hundred microseconds). */
const smallImage = validImage.filter((m) => m.width <= 64 && m.height <= 64);

const roi: fc.Arbitrary<NativeRoi | null> = fc.option(
  fc.record({
    x: fc.integer({ min: -80, max: 80 }),
    y: fc.integer({ min: -80, max: 80 }),
    width: fc.integer({ min: 1, max: 100 }),
    height: fc.integer({ min: 1, max: 100 }),
    outside: fc.constantFrom('reject' as const, 'pad' as const),
  }),
  { freq: 2 },
);

describe('decoded frames through the native preprocessing: properties (fast-check)', function () {
  this.timeout(120000);
  let session: NativeSession;

  before(async () => {
    session = await nativeAddon().loadSession(convOptions());
  });
  after(() => session?.dispose());

  it('every accepted frame, exactly as long as it must be, is preprocessed and run', async function () {
    await propertyCheckAsync(
      fc.asyncProperty(smallImage, representation, roi, async (m, rep, region) => {
        const f = decodeImage(writeImage(rep, m));
        // A fresh buffer of exactly the bytes the geometry needs: a read past it is out of bounds.
        const data = new Uint8Array(
          f.data.subarray(0, requiredDataBytes(f.encoding, f.step, f.height)),
        );
        const frame = {
          data,
          width: f.width,
          height: f.height,
          step: f.step,
          encoding: f.encoding,
        };
        try {
          await session.run(frame, region, {});
        } catch (e) {
          const code = (e as { code?: string }).code;
          // Only a region may be refused (outside the image, or not overlapping it), by its code.
          assert.ok(region !== null, `a whole frame was refused: ${String(e)}`);
          assert.equal(code, 'ERR_ROI_INVALID', String(e));
        }
      }),
      1_000,
    );
  });
});
