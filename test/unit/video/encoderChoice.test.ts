import * as assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/configError';
import { chooseEncoder, describeProbe } from '../../../src/video/encoderChoice';
import type { V4l2DeviceReport, VideoLibraries } from '../../../src/video/videoAddon';

const FULL: VideoLibraries = {
  openh264: '2.3.1',
  libavcodec: 'libavcodec 59.37.100',
  libavcodecEncoders: ['h264_v4l2m2m', 'libx264'],
};
const NO_LIBAV: VideoLibraries = { openh264: '2.3.1', libavcodec: null, libavcodecEncoders: [] };

function device(over: Partial<V4l2DeviceReport>): V4l2DeviceReport {
  return {
    path: '/dev/video0',
    driver: 'uvcvideo',
    card: 'USB Camera',
    error: '',
    memoryToMemory: false,
    codedFormats: [],
    rawFormats: [],
    h264Encoder: false,
    ...over,
  };
}

const CAMERA = device({});
const DECODER = device({
  path: '/dev/video32',
  driver: 'qcom-venus',
  card: 'Qualcomm Venus video decoder',
  memoryToMemory: true,
  codedFormats: ['NV12'],
  rawFormats: ['H264', 'HEVC'],
});
const ENCODER = device({
  path: '/dev/video33',
  driver: 'qcom-venus',
  card: 'Qualcomm Venus video encoder',
  memoryToMemory: true,
  codedFormats: ['H264', 'HEVC'],
  rawFormats: ['NV12'],
  h264Encoder: true,
});
const LOCKED = device({ path: '/dev/video1', driver: '', card: '', error: 'Permission denied' });

describe('video encoder choice', () => {
  it('auto takes the board encoder when the probe finds one and libavcodec drives it', () => {
    const c = chooseEncoder('auto', [CAMERA, DECODER, ENCODER], FULL);
    assert.equal(c.codec, 'v4l2m2m');
    assert.equal(c.hardware, true);
    assert.match(c.label, /V4L2 hardware \(\/dev\/video33, qcom-venus\)/);
  });

  it('auto falls back to OpenH264 and says what was probed', () => {
    const c = chooseEncoder('auto', [CAMERA, DECODER, LOCKED], FULL);
    assert.equal(c.codec, 'openh264');
    assert.equal(c.hardware, false);
    assert.equal(c.label, 'software (OpenH264 2.3.1)');
    assert.match(c.reason, /\/dev\/video0 \(uvcvideo 'USB Camera': not memory-to-memory\)/);
    assert.match(c.reason, /\/dev\/video32 .*makes NV12 from H264\/HEVC/);
    assert.match(c.reason, /\/dev\/video1 \(Permission denied\)/);
  });

  it('v4l2 without a device is a ConfigError naming what was probed', () => {
    assert.throws(
      () => chooseEncoder('v4l2', [], FULL),
      (e: unknown) =>
        e instanceof ConfigError &&
        /^video_encoder v4l2: no V4L2 memory-to-memory H\.264 encoder: probed no \/dev\/video\* device$/.test(
          e.message,
        ),
    );
  });

  it('v4l2 with a device but no libavcodec says the addon lacks it', () => {
    assert.throws(() => chooseEncoder('v4l2', [ENCODER], NO_LIBAV), /without libavcodec/);
  });

  it('software is OpenH264; x264 only where libavcodec has it, labelled GPL', () => {
    assert.equal(chooseEncoder('software', [ENCODER], FULL).codec, 'openh264');
    const x = chooseEncoder('x264', [], FULL);
    assert.equal(x.codec, 'x264');
    assert.match(x.label, /GPL/);
    assert.throws(() => chooseEncoder('x264', [], NO_LIBAV), ConfigError);
  });

  it('describes an empty probe and every kind of device', () => {
    assert.equal(describeProbe([]), 'no /dev/video* device');
    assert.match(describeProbe([ENCODER]), /H\.264 encoder, NV12 in/);
  });
});
