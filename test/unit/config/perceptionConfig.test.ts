import { strict as assert } from 'node:assert';
import {
  depthSettings,
  frameOptions,
  PERCEPTION_DEFAULTS,
  PERCEPTION_PARAMETERS,
  parsePerceptionConfig,
} from '../../../src/config/perceptionConfig';

const parse = (over: Record<string, unknown>) =>
  parsePerceptionConfig({ ...PERCEPTION_DEFAULTS, ...over }, 'test parameters');

describe('perception parameters', () => {
  it('accepts only known HTP power profiles (it took any string before)', () => {
    assert.equal(parse({ htp_profile: 'burst' }).htp_profile, 'burst');
    assert.throws(
      () => parse({ htp_profile: 'turbo' }),
      (e: Error) =>
        e.name === 'ConfigError' &&
        /test parameters: htp_profile: .*sustained_high_performance/.test(e.message),
    );
  });

  it('refuses both person_detector and person_source', () => {
    assert.throws(
      () => parse({ person_detector: '/m.manifest.json', person_source: 'detector' }),
      /person_source: set either person_detector or person_source, not both/,
    );
  });

  it('names the parameter and the bound of a value out of range', () => {
    assert.throws(
      () => parse({ score_threshold: 1.5 }),
      /score_threshold: Too big: expected number to be <=1/,
    );
    assert.throws(() => parse({ max_detections: 0 }), /max_detections/);
  });

  it('gives every parameter a description and a kind; only autostart is read-only', () => {
    for (const [name, spec] of Object.entries(PERCEPTION_PARAMETERS)) {
      assert.ok(spec.description.length > 10, name);
      assert.ok(['frame', 'session', 'unconfigured', 'fixed'].includes(spec.kind), name);
    }
    // Every parameter that names a file to load, and the switch that lets a changed one load.
    const unconfigured = Object.entries(PERCEPTION_PARAMETERS)
      .filter(([, s]) => s.kind === 'unconfigured')
      .map(([n]) => n)
      .sort();
    assert.deepEqual(unconfigured, [
      'allow_model_mismatch',
      'context_cache',
      'model',
      'person_detector',
    ]);
    const fixed = Object.entries(PERCEPTION_PARAMETERS).filter(([, s]) => s.kind === 'fixed');
    assert.deepEqual(
      fixed.map(([n]) => n),
      ['autostart'],
    );
    const frame = Object.entries(PERCEPTION_PARAMETERS)
      .filter(([, s]) => s.kind === 'frame')
      .map(([n]) => n)
      .sort();
    assert.deepEqual(frame, [
      'annotated_max_rate_hz',
      'annotated_max_width',
      'batch_window_ms',
      'classes',
      'depth_max_m',
      'depth_min_m',
      'depth_slop_ms',
      'input_timeout_s',
      'iou_threshold',
      'jpeg_quality',
      'max_detections',
      'on_accelerator_failure',
      'person_classes',
      'probability_threshold',
      'run_deadline_ms',
      'score_threshold',
      'segmentation_color_opacity',
      'track_buffer',
      'track_high_threshold',
      'track_low_threshold',
      'track_match_iou',
      'track_new_threshold',
      'tracking',
      'video_bitrate_kbps',
      'video_encoder',
      'video_keyframe_interval_s',
      'video_width',
    ]);
  });

  it('refuses on_accelerator_failure cpu with require_accelerator, and deadlines under 100 ms', () => {
    assert.equal(parse({}).on_accelerator_failure, 'retry');
    assert.equal(parse({}).run_deadline_ms, 5000);
    assert.throws(
      () => parse({ require_accelerator: true, on_accelerator_failure: 'cpu' }),
      /on_accelerator_failure: cpu contradicts require_accelerator/,
    );
    assert.equal(
      parse({ require_accelerator: true, on_accelerator_failure: 'stop' }).on_accelerator_failure,
      'stop',
    );
    assert.throws(() => parse({ run_deadline_ms: 50 }), /run_deadline_ms/);
    assert.throws(() => parse({ on_accelerator_failure: 'reboot' }), /on_accelerator_failure/);
  });

  it('keeps the depth range ordered and reads the depth settings per frame', () => {
    assert.throws(
      () => parse({ depth_min_m: 5, depth_max_m: 4 }),
      /depth_min_m: must be below depth_max_m \(4\)/,
    );
    assert.deepEqual(depthSettings(parse({ depth_slop_ms: 20, depth_max_m: 6 })), {
      slopMs: 20,
      range: { min: 0.1, max: 6 },
    });
    assert.equal(PERCEPTION_PARAMETERS.depth.kind, 'session');
  });

  it('orders the tracking thresholds: low <= high <= new', () => {
    assert.equal(parse({ track_low_threshold: 0.5, track_high_threshold: 0.5 }).tracking, false);
    assert.throws(
      () => parse({ track_low_threshold: 0.6 }),
      (e: Error) =>
        e.name === 'ConfigError' &&
        /track_low_threshold: must not exceed track_high_threshold \(0\.5\)/.test(e.message),
    );
    assert.throws(
      () => parse({ track_high_threshold: 0.7 }),
      /track_new_threshold: must be at least track_high_threshold \(0\.7\)/,
    );
    assert.throws(() => parse({ track_buffer: 0 }), /track_buffer/);
  });

  it('passes the tracker its options only while tracking is on', () => {
    assert.equal(frameOptions(parse({})).tracking, undefined);
    assert.deepEqual(frameOptions(parse({ tracking: true, track_buffer: 12 })).tracking, {
      highThreshold: 0.5,
      lowThreshold: 0.1,
      newTrackThreshold: 0.6,
      matchIou: 0.2,
      buffer: 12,
    });
  });
});
