import { strict as assert } from 'node:assert';
import {
  e2eRow,
  FloorRun,
  NODE_STAGES,
  NodeRun,
  NodeSpan,
  NodeStage,
  UltralyticsRun,
} from '../../src/e2eRows';

const stages = (inference: number): Record<NodeStage | NodeSpan, number> => ({
  ...(Object.fromEntries(NODE_STAGES.map((s) => [s, s === 'inference' ? inference : 1])) as Record<
    NodeStage,
    number
  >),
  stamp_to_publish: 40,
  callback_to_publish: 33.5,
});

function run(over: Partial<NodeRun> = {}): NodeRun {
  return {
    width: 640,
    height: 480,
    precision: 'fp32',
    pacedE2eMs: [30, 10, 20, 40, 50],
    pacedLost: 1,
    rateSent: 300,
    rateReceived: 150,
    rateSeconds: 10,
    rateE2eMs: [60, 70],
    nodeP50: stages(25),
    rateCpuMs: 600,
    rateCpuFrames: 150,
    rateCpuWindowS: [10, 30.004],
    rateThreadCpuMs: [
      ['node', 450],
      ['dds.shm.7411', 150],
    ],
    rateMinorFaults: 300,
    rssMb: 180.123,
    loadAvg: 1.5,
    ...over,
  };
}

const ultra = (total: number): UltralyticsRun => ({
  total_ms: [total, total + 2, total - 2],
  preprocess_ms: [1, 1, 1],
  inference_ms: [total - 3, total - 3, total - 3],
  postprocess_ms: [2, 2, 2],
});

describe('e2eRow', function () {
  it('derives overhead, its ratio to the engine, fps and the unattributed rest from one run', function () {
    const r = e2eRow(run(), ultra(80), ultra(90));
    assert.equal(r.resolution, '640x480');
    assert.equal(r.e2e_ms_p50, 30);
    assert.equal(r.engine_ms_p50, 25);
    assert.equal(r.overhead_ms_p50, 5);
    assert.equal(r.overhead_ratio, 0.2);
    assert.equal(r.fps_30hz, 15);
    assert.equal(r.sent_hz_30hz, 30);
    assert.equal(r.paced_frames, 5);
    assert.equal(r.paced_lost, 1);
    // Ten stages of 1 ms plus inference 25: 35 ms of node time against a 30 ms e2e median.
    assert.equal(r.dds_out_ms_p50, -5);
    assert.equal(r.ultralytics_pt_ms_p50, 80);
    assert.equal(r.ultralytics_onnx_ms_p50, 90);
    assert.equal(r.ultralytics_pt_stages_ms_p50?.inference_ms_p50, 77);
  });

  it('names the Ultralytics .pt figure ultralytics_ms_p50 on the FP32 640x480 row only', function () {
    assert.equal(e2eRow(run(), ultra(80), ultra(90)).ultralytics_ms_p50, 80);
    assert.ok(!('ultralytics_ms_p50' in e2eRow(run({ precision: 'int8' }), ultra(80), ultra(90))));
    assert.ok(
      !('ultralytics_ms_p50' in e2eRow(run({ width: 1280, height: 720 }), ultra(80), undefined)),
    );
  });

  it('reports skipped Ultralytics runs as null, not as zero', function () {
    const r = e2eRow(run(), undefined, undefined);
    assert.equal(r.ultralytics_pt_ms_p50, null);
    assert.equal(r.ultralytics_onnx_ms_p50, null);
    assert.equal(r.ultralytics_ms_p50, null);
  });

  it('reports the node span and its CPU per published frame from the 30 Hz phase', function () {
    const r = e2eRow(run(), undefined, undefined);
    assert.equal(r.node_stages_ms_p50, 33.5);
    // 600 ms of CPU for 150 frames published.
    assert.equal(r.node_cpu_ms_per_frame, 4);
    // Split by thread: 450 and 150 ms over the same 150 frames.
    assert.deepEqual(r.node_cpu_ms_per_frame_by_thread, { node: 3, 'dds.shm.7411': 1 });
    // Read from 10 s to 30 s of the phase: the window says where, so rows read differently
    // (earlier runs: from 3 s of a 10 s phase) are not compared as if alike.
    assert.deepEqual(r.node_cpu_window_s, [10, 30]);
    assert.equal(
      e2eRow(run({ rateCpuFrames: 0 }), undefined, undefined).node_cpu_ms_per_frame,
      null,
    );
  });

  it('reports the node page faults per published frame over the CPU span and its RSS', function () {
    const r = e2eRow(run(), undefined, undefined);
    // 300 minor faults over the same 150 frames as the CPU.
    assert.equal(r.node_minor_faults_per_frame, 2);
    assert.equal(r.node_rss_mb, 180.12);
    const none = e2eRow(run({ rateCpuFrames: 0 }), undefined, undefined);
    assert.equal(none.node_minor_faults_per_frame, null);
  });

  it('sets the overhead against the floor measured at the same resolution', function () {
    const floor: FloorRun = {
      inMs: [2, 3, 4],
      outMs: [1, 1.5, 2],
      totalMs: [3, 4, 5, 6, 7],
      cpuMs: 120,
      cpuFrames: 150,
      cpuWindowS: [3, 10],
      threadCpuMs: [['main', 90]],
    };
    const r = e2eRow(run(), undefined, undefined, floor);
    assert.equal(r.floor_ms_p50, 5);
    assert.equal(r.floor_in_ms_p50, 3);
    assert.equal(r.floor_out_ms_p50, 1.5);
    // Overhead 5 ms (e2e 30 - engine 25) less the floor's 5 ms.
    assert.equal(r.overhead_above_floor_ms_p50, 0);
    // The bare node's 120 ms of CPU over 150 frames.
    assert.equal(r.floor_cpu_ms_per_frame, 0.8);
    assert.deepEqual(r.floor_cpu_ms_per_frame_by_thread, { main: 0.6 });
    assert.deepEqual(r.floor_cpu_window_s, [3, 10]);
    assert.equal(
      e2eRow(run(), undefined, undefined, { ...floor, cpuFrames: 0 }).floor_cpu_ms_per_frame,
      null,
    );
    const none = e2eRow(run(), undefined, undefined);
    assert.equal(none.floor_ms_p50, null);
    assert.equal(none.overhead_above_floor_ms_p50, null);
    assert.equal(none.floor_cpu_window_s, null);
  });

  it('gives no overhead ratio on stand-in rows, whose inference is ~0', function () {
    const r = e2eRow(
      run({ precision: 'htp-standin', nodeP50: stages(0.05) }),
      undefined,
      undefined,
    );
    assert.equal(r.overhead_ratio, 0);
    assert.equal(r.engine_ms_p50, 0.05);
  });

  it('refuses a run in which no paced frame came back', function () {
    assert.throws(() => e2eRow(run({ pacedE2eMs: [] }), undefined, undefined), /no paced frame/);
  });
});
