import * as assert from 'node:assert/strict';
import {
  arenaValues,
  nodeDiagnostics,
  NodeDiagnosticsInput,
  sessionDiagnostics,
} from '../../../../src/nodes/perception/nodeDiagnostics';
import { NodeStats } from '../../../../src/nodes/perception/nodeStats';
import { DIAG_ERROR, DIAG_OK, DIAG_WARN } from '../../../../src/ros/diagnosticsPublisher';
import type { RecoveryStats } from '../../../../src/nodes/perception/acceleratorRecovery';

const active = (over: Partial<NodeDiagnosticsInput> = {}): NodeDiagnosticsInput => ({
  camera: '',
  state: 'active',
  transition: undefined,
  configureError: '',
  model: 'yolov8s-fall',
  requestedProvider: 'cpu',
  input: '/cam/image',
  pipeline: undefined,
  engine: undefined,
  onAcceleratorFailure: 'retry',
  intake: undefined,
  droppedStale: 0,
  stats: new NodeStats(),
  view: undefined,
  depth: undefined,
  inputTimeoutS: 2,
  staleInputs: [],
  memory: process.memoryUsage(),
  malloc: null,
  ...over,
});

describe('nodes/nodeDiagnostics: stale input', () => {
  it('WARNs naming each silent topic and its silence, OK again without; values say which and the timeout', () => {
    const ok = nodeDiagnostics(active());
    assert.equal(ok.level, DIAG_OK);
    assert.equal(ok.values.stale_inputs, '');
    assert.equal(ok.values.input_timeout_s, 2);
    const stale = nodeDiagnostics(
      active({
        staleInputs: [
          { what: 'image', topic: '/cam/image', silentS: 2.04 },
          { what: 'CameraInfo', topic: '/cam/camera_info', silentS: 3.5 },
        ],
      }),
    );
    assert.equal(stale.level, DIAG_WARN);
    assert.equal(
      stale.message,
      'no image on /cam/image for 2.0 s; no CameraInfo on /cam/camera_info for 3.5 s',
    );
    assert.equal(stale.values.stale_inputs, '/cam/image, /cam/camera_info');
  });

  it('depth: true: silent CameraInfo while colour frames come says they go out in 2D only', () => {
    const depth = {
      depthTopic: '/cam/depth',
      cameraInfoTopic: '/cam/camera_info',
      counters: undefined,
      spatial: {
        framesWithDepth: 0,
        framesWithoutDepth: { no_camera_info: 12 },
        detectionsWithoutDepth: 0,
        markers: { published: 0, unwatched: 0 },
        lastMissing: 'no_camera_info' as const,
        framesWithoutTransform: {},
        lastTransformError: '',
      },
      targetFrame: '',
      transforms: undefined,
    };
    const info = { what: 'CameraInfo', topic: '/cam/camera_info', silentS: 2.5 };
    const d = nodeDiagnostics(active({ depth, staleInputs: [info] }));
    assert.equal(d.level, DIAG_WARN);
    assert.equal(
      d.message,
      'no CameraInfo on /cam/camera_info for 2.5 s: results go out in 2D only',
    );
    // The camera itself silent: nothing goes out at all, so no "2D only".
    const image = { what: 'image', topic: '/cam/image', silentS: 2.5 };
    const all = nodeDiagnostics(active({ depth, staleInputs: [image, info] }));
    assert.equal(
      all.message,
      'no image on /cam/image for 2.5 s; no CameraInfo on /cam/camera_info for 2.5 s',
    );
  });

  it('target_frame without its transform: WARN naming both frames and why, counted by reason', () => {
    const depth = {
      depthTopic: '/cam/depth',
      cameraInfoTopic: '/cam/camera_info',
      counters: undefined,
      spatial: {
        framesWithDepth: 7,
        framesWithoutDepth: {},
        detectionsWithoutDepth: 0,
        markers: { published: 0, unwatched: 0 },
        lastMissing: undefined,
        framesWithoutTransform: { unknown_frame: 7 },
        lastTransformError:
          "no transform from 'cam_optical' to 'base_link': frame 'cam_optical' does not exist",
      },
      targetFrame: 'base_link',
      transforms: { received: 3, refused: 1, refusedLast: "a transform from 'a' to itself" },
    };
    const d = nodeDiagnostics(active({ depth }));
    assert.equal(d.level, DIAG_WARN);
    assert.equal(
      d.message,
      "no transform from 'cam_optical' to 'base_link': frame 'cam_optical' does not exist: results go out in 2D only",
    );
    assert.equal(d.values.target_frame, 'base_link');
    assert.equal(d.values.frames_without_transform, 7);
    assert.equal(d.values.frames_without_transform_by_reason, '{"unknown_frame":7}');
    assert.equal(d.values.transforms_refused, 1);
  });

  it('every WARN reason, most urgent first: an incompatible publisher, then the silence it causes', () => {
    const intake = {
      received: 0,
      rejected: 0,
      rejectedByCode: {},
      incompatiblePublishers: ['/camera: it offers best effort, the node asks reliable'],
      take: 'direct' as const,
      lost: 2,
      lastReceivedAt: undefined,
    };
    const d = nodeDiagnostics(
      active({ intake, staleInputs: [{ what: 'image', topic: '/cam/image', silentS: 3 }] }),
    );
    assert.equal(
      d.message,
      'incompatible publisher: /camera: it offers best effort, the node asks reliable; no image on /cam/image for 3.0 s',
    );
    // What DDS lost before the take is its own count, beside received and bad_frames.
    assert.equal(d.values.lost, 2);
  });

  it('an inactive node is not stale (its state says why nothing comes)', () => {
    const d = nodeDiagnostics(
      active({
        state: 'inactive',
        staleInputs: [{ what: 'image', topic: '/cam/image', silentS: 9 }],
      }),
    );
    assert.equal(d.message, 'inactive');
    assert.equal(d.level, DIAG_OK);
  });

  it('reports the input format and its changes', () => {
    const stats = new NodeStats();
    stats.noteFormat(640, 424, 'rgb8');
    stats.noteFormat(320, 212, 'yuyv');
    const d = nodeDiagnostics(active({ stats }));
    assert.equal(d.values.input_format, '320x212 yuyv');
    assert.equal(d.values.input_format_changes, 1);
  });
});

describe('nodes/nodeDiagnostics: engine failures (on_accelerator_failure)', () => {
  const engine = (over: Partial<RecoveryStats>): RecoveryStats => ({
    state: 'ok',
    failures: 0,
    recoveries: 0,
    lastFailure: '',
    failedProvider: '',
    attempts: 0,
    nextAttemptInS: undefined,
    droppedWhileBroken: 0,
    ...over,
  });
  const failure = 'ERR_RUNTIME: run 5 of m.onnx failed';

  it('ERRORs naming the provider, the failure and the next re-creation while broken', () => {
    const r = nodeDiagnostics(
      active({
        requestedProvider: 'htp',
        engine: engine({
          state: 'broken',
          failures: 1,
          lastFailure: failure,
          failedProvider: 'htp',
          nextAttemptInS: 1.2,
          droppedWhileBroken: 7,
        }),
      }),
    );
    assert.equal(r.level, DIAG_ERROR);
    assert.equal(
      r.message,
      `engine failed on htp: ${failure}; on_accelerator_failure retry: re-creating the sessions in 1.2 s`,
    );
    assert.equal(r.values.engine_state, 'broken');
    assert.equal(r.values.engine_failures, 1);
    assert.equal(r.values.last_engine_failure, failure);
    assert.equal(r.values.dropped_engine_down, 7);
    assert.equal(r.values.on_accelerator_failure, 'retry');
  });

  it('stays ERROR while re-creating, is OK again once a run answers (probing counts as running)', () => {
    const down = { requestedProvider: 'htp' as const, onAcceleratorFailure: 'retry' };
    const reloading = nodeDiagnostics(
      active({ ...down, engine: engine({ state: 'reloading', failedProvider: 'htp' }) }),
    );
    assert.equal(reloading.level, DIAG_ERROR);
    assert.match(reloading.message, /re-creating the sessions$/);
    for (const state of ['probing', 'ok'] as const) {
      const r = nodeDiagnostics(active({ ...down, engine: engine({ state, recoveries: 1 }) }));
      assert.equal(r.level, DIAG_OK, r.message);
      assert.equal(r.values.engine_recoveries, 1);
    }
  });

  it('a node stopped by policy stop is ERROR while inactive, saying why', () => {
    const r = nodeDiagnostics(
      active({
        state: 'inactive',
        onAcceleratorFailure: 'stop',
        engine: engine({ state: 'stopped', failedProvider: 'cpu', lastFailure: failure }),
      }),
    );
    assert.equal(r.level, DIAG_ERROR);
    assert.equal(r.message, `inactive: cpu failed (${failure}); on_accelerator_failure stop`);
  });

  it('an inactive node that was never stopped stays OK', () => {
    const r = nodeDiagnostics(active({ state: 'inactive', engine: engine({}) }));
    assert.equal(r.level, DIAG_OK);
    assert.equal(r.message, 'inactive');
  });
});

describe('nodes/nodeDiagnostics: native memory', () => {
  const MB = 1024 * 1024;
  it("shows malloc's in-use, kept-free and mmapped memory in MB, empty off glibc", () => {
    const on = nodeDiagnostics(
      active({ malloc: { inUseBytes: 12.5 * MB, freeBytes: 3 * MB, mmappedBytes: 200.25 * MB } }),
    );
    assert.equal(on.values.process_malloc_in_use_mb, '12.5');
    assert.equal(on.values.process_malloc_free_mb, '3.0');
    assert.equal(on.values.process_malloc_mmapped_mb, '200.3');
    const off = nodeDiagnostics(active({ malloc: null }));
    assert.equal(off.values.process_malloc_in_use_mb, '');
    assert.equal(off.values.process_malloc_free_mb, '');
  });

  it("sums the node's arenas once every model has run, empty before", () => {
    const a = { reservedBytes: 8 * MB, inUseBytes: MB, peakInUseBytes: 6 * MB, extensions: 3 };
    const b = { reservedBytes: 2 * MB, inUseBytes: 0, peakInUseBytes: 1.5 * MB, extensions: 1 };
    assert.deepEqual(arenaValues([a, b]), {
      engine_arena_reserved_mb: '10.0',
      engine_arena_peak_mb: '7.5',
      engine_arena_extensions: '4',
    });
    // The person detector has run, the pose model not yet: a partial sum would mislead.
    assert.equal(arenaValues([a, null]).engine_arena_reserved_mb, '');
    assert.equal(arenaValues([]).engine_arena_reserved_mb, '');
  });
});

describe('nodes/sessionDiagnostics: the node-level status of a node with cameras', () => {
  it('keeps the session values, counts the sessions, sums the rates and names the camera at fault', () => {
    const session = nodeDiagnostics(active({ camera: '' }));
    const ok = {
      level: DIAG_OK,
      message: '5.0 fps',
      values: { output_hz: '5.00', input_hz: '5.00' },
    };
    const silent = {
      level: DIAG_WARN,
      message: 'no image on /rear/image_raw for 3.0 s',
      values: { output_hz: '0.00', input_hz: '0.00' },
    };
    const all = sessionDiagnostics(
      session,
      [
        { camera: 'front', report: ok },
        { camera: 'rear', report: ok },
      ],
      1,
    );
    assert.equal(all.level, DIAG_OK);
    assert.equal(all.message, '10.0 fps over 2 cameras');
    assert.equal(all.values.model_sessions, 1);
    assert.equal(all.values.cameras, 'front, rear');
    assert.equal(all.values.model, 'yolov8s-fall');
    assert.equal(all.values.front_output_hz, '5.00');
    assert.equal(all.values.received, undefined, "a camera's counters stay in its own status");
    const one = sessionDiagnostics(
      session,
      [
        { camera: 'front', report: ok },
        { camera: 'rear', report: silent },
      ],
      1,
    );
    assert.equal(one.level, DIAG_WARN);
    assert.equal(one.message, 'rear: no image on /rear/image_raw for 3.0 s');
  });
});
