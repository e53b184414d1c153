import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useRosTestBed } from '../../support/rosTestBed';
import type { StampedMsg, WatchQos } from '../../support/rosClient';
import { nodeCommand, nodeScript, startProcess } from '../../support/rosProcess';

interface Output {
  readonly topic: string;
  readonly type: string;
}

const IMAGE = 'sensor_msgs/msg/Image';
const JPEG = 'sensor_msgs/msg/CompressedImage';
const LABELS = 'vision_msgs/msg/LabelInfo';

/** Every output of the three pipelines (but the one whose QoS the params file overrides). */
const OUTPUTS: readonly Output[] = [
  { topic: '/q_seg/detections', type: 'vision_msgs/msg/Detection2DArray' },
  { topic: '/q_seg/instances', type: IMAGE },
  { topic: '/q_seg/annotated', type: IMAGE },
  { topic: '/q_seg/annotated/compressed', type: JPEG },
  { topic: '/q_seg/annotations', type: 'foxglove_msgs/msg/ImageAnnotations' },
  { topic: '/q_sem/segmentation', type: IMAGE },
  { topic: '/q_sem/segmentation/color', type: IMAGE },
  { topic: '/q_sem/annotated', type: IMAGE },
  { topic: '/q_sem/annotated/compressed', type: JPEG },
  { topic: '/q_pose/poses', type: 'htp_perception/msg/PersonPoseArray' },
  { topic: '/q_pose/annotated/compressed', type: JPEG },
  { topic: '/q_pose/annotations', type: 'foxglove_msgs/msg/ImageAnnotations' },
  { topic: '/diagnostics', type: 'diagnostic_msgs/msg/DiagnosticArray' },
  // image_source's camera stream too.
  { topic: '/q_cam/image', type: IMAGE },
];
const LATCHED: readonly Output[] = [
  { topic: '/q_seg/labels', type: LABELS },
  { topic: '/q_sem/labels', type: LABELS },
];
const OVERRIDDEN = '/q_pose/annotated';

// A ROS parameters file: three pipelines on one camera; q_pose's raw annotated stream is made best
// effort the rclcpp way; q_seg's pictures are bounded to 320 px wide.
const PARAMS = `
perception_container:
  ros__parameters:
    pipelines: [q_seg, q_sem, q_pose]
q_seg:
  ros__parameters:
    model: yolov8n-seg
    threads: 1
    annotated_max_width: 320
q_sem:
  ros__parameters:
    model: deeplabv3-mobilenetv3-large-520
    threads: 1
    segmentation_color_opacity: 0.6
q_pose:
  ros__parameters:
    model: yolov8n-pose
    threads: 1
    qos_overrides:
      ${OVERRIDDEN}:
        publisher:
          reliability: best_effort
          depth: 2
`;

const key = (o: Output, qos: WatchQos): string => `${o.topic}#${qos}`;

/**
 * Issue 11 item 6: a new user's subscriber, with ROS 2's default QoS (reliable) or with sensor-data
 * QoS (best effort), receives every output; and a publisher's QoS follows rclcpp's
 * qos_overrides.<topic>.publisher.* parameters. Real container, real models, rclpy subscribers.
 */
describe('outputs every viewer can subscribe to (QoS)', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-qos-'));
    fs.writeFileSync(path.join(tmp, 'pipelines.yaml'), PARAMS);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('default and sensor-data subscribers both receive every output; an override applies', async function () {
    const c = bed.client;
    for (const o of OUTPUTS) {
      for (const qos of ['default', 'sensor'] as const)
        await c.watchAs(key(o, qos), o.topic, o.type, qos);
    }
    for (const o of LATCHED) {
      for (const qos of ['default', 'sensor', 'latched'] as const) {
        await c.watchAs(key(o, qos), o.topic, o.type, qos);
      }
    }
    for (const qos of ['default', 'sensor'] as const) {
      await c.watchAs(key({ topic: OVERRIDDEN, type: IMAGE }, qos), OVERRIDDEN, IMAGE, qos);
    }
    const container = bed.own(
      startProcess('node', [
        ...nodeCommand('perceptionContainer'),
        '--ros-args',
        '--params-file',
        path.join(tmp, 'pipelines.yaml'),
        '-r',
        'image:=/q_cam/image',
      ]),
    );
    await container.waitFor(/model yolov8n-pose\S* \(fp32\) on cpu: nodes by provider/, 150_000);
    bed.own(
      startProcess('node', [
        nodeScript('src/nodes/imageSourceNode.js'),
        '--ros-args',
        '-r',
        '__node:=q_src',
        '-r',
        'image:=/q_cam/image',
        '-p',
        `directory:=${bed.photoDir}`,
        '-p',
        'rate_hz:=2.0',
        '-p',
        'frame_id:=q_frame',
      ]),
    );

    const got = new Map<string, StampedMsg[]>();
    for (const o of OUTPUTS) {
      for (const qos of ['default', 'sensor'] as const) {
        const k = key(o, qos);
        const msgs = await c.take<StampedMsg>(k, 1, 90);
        assert.ok(msgs.length > 0, `${k}: nothing received`);
        assert.equal(await c.incompatibleQos(k), 0, `${k}: incompatible QoS`);
        got.set(k, msgs);
      }
    }
    for (const o of LATCHED) {
      // Labels go out once per configure and stay for late subscribers: a transient-local
      // subscription receives them; volatile ones match (no incompatible QoS) but come too late.
      assert.equal((await c.take<StampedMsg>(key(o, 'latched'), 1, 30)).length, 1, o.topic);
      for (const qos of ['default', 'sensor'] as const) {
        assert.equal(await c.incompatibleQos(key(o, qos)), 0, key(o, qos));
      }
    }

    // The override: best effort now, so only the sensor-data subscriber matches.
    const sensor = await c.take<StampedMsg>(
      key({ topic: OVERRIDDEN, type: IMAGE }, 'sensor'),
      1,
      60,
    );
    assert.ok(sensor.length > 0, 'sensor-data subscriber receives the overridden stream');
    assert.ok((await c.incompatibleQos(key({ topic: OVERRIDDEN, type: IMAGE }, 'default'))) > 0);
    assert.deepEqual(await c.take(key({ topic: OVERRIDDEN, type: IMAGE }, 'default'), 0, 0), []);
    const [reliability, depth] = await c.describe('q_pose', [
      `qos_overrides.${OVERRIDDEN}.publisher.reliability`,
      `qos_overrides.${OVERRIDDEN}.publisher.depth`,
    ]);
    assert.equal(reliability?.read_only, true);
    assert.equal(
      reliability?.description,
      `qos policy {reliability} for publisher {${OVERRIDDEN}}`,
    );
    assert.equal(depth?.read_only, true);
    const [refused] = await c.setParams('q_pose', {
      [`qos_overrides.${OVERRIDDEN}.publisher.depth`]: 7,
    });
    assert.deepEqual(refused, {
      successful: false,
      reason: `qos_overrides.${OVERRIDDEN}.publisher.depth is read-only: set it at start`,
    });

    // What the pictures are: JPEGs, the bounded width, the colour view beside the class map.
    const seg = got.get('/q_seg/annotated#default')![0]!;
    assert.deepEqual(
      [seg.encoding, seg.width, seg.height, seg.frame_id],
      ['rgb8', 320, 212, 'q_frame'],
    );
    assert.equal(got.get('/q_seg/annotated/compressed#sensor')![0]!.format, 'jpeg');
    const map = got.get('/q_sem/segmentation#default')![0]!;
    const color = got.get('/q_sem/segmentation/color#default')![0]!;
    assert.deepEqual(
      [color.encoding, color.width, color.height, color.bytes],
      ['rgb8', map.width, map.height, map.width! * map.height! * 3],
    );
    assert.equal(map.encoding, 'mono8');
  });
});
